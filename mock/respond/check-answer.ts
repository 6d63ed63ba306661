// The last look at an answer to a contract request before it is recorded and sent: a refusal becomes the
// documented response (shape-refusal.ts), and a body the contract gives that breaks its own schema is
// reported (a log line once, the journal, an `sl-violations` header), or with `errors` answered as a 500.
import type { IHttpOperation } from '@stoplight/types';
import type { BodyGenerator } from '../generate/generate-body.js';
import type { RouteHit } from '../plan/operation-plan.js';
import {
  documentedContent,
  findContentViolations,
  SchemaChecks,
  bodyViolation,
  placed,
  type AnswerViolation,
  type BodyViolation,
} from '../prism/check-response.js';
import type { Reply } from '../http/reply.js';
import { kindOf, MAX_VIOLATIONS, problem, type Violation } from '../http/problems.js';
import { refusalOfRequest, shapeRefusal, type Refusal } from './shape-refusal.js';

/** An answer as it is sent, and what the journal says of it. */
export interface CheckedAnswer {
  reply: Reply;
  refusal?: Refusal;
  responseViolations?: BodyViolation[];
}

/** The request an answer is checked for: its operation, when it was routed to one. */
export interface AnswerRequest {
  hit: RouteHit | undefined;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | string[]>;
}

export type AnswerCheck = (request: AnswerRequest, reply: Reply) => CheckedAnswer;

/** How answers are checked. */
export interface AnswerCheckSettings {
  generator: BodyGenerator;
  /** Answer a body that breaks its schema with a 500 problem listing the violations (Prism's `--errors`). */
  errors: boolean;
  /** Where the one line about each body that breaks its schema goes (a logger's `warn`). */
  warn: (msg: string, fields?: Record<string, unknown>) => void;
}

/** Distinct broken bodies logged; past it, no more lines (a generator that breaks every body says so once). */
const MAX_LOGGED = 1000;

/**
 * Makes the answer check of one mock instance: the stage between deciding an answer and recording it. Anything
 * failing while a refusal is shaped leaves the mock's own problem in place: a refusal always gets an answer.
 * @example createAnswerCheck({ generator, errors: false, warn: logger.warn })({ hit, path, headers, query }, reply)
 */
export function createAnswerCheck(settings: AnswerCheckSettings): AnswerCheck {
  const logged = new Set<string>();
  // Examples, and state's frozen answers, are served again and again: each is checked once.
  const checked = new WeakMap<object, BodyViolation[]>();
  const checks = new SchemaChecks();
  return (request, given) => {
    const { hit } = request;
    const own = kindOf(given.body) !== undefined;
    if (!hit) return own ? { reply: given, refusal: { status: given.status, documented: false } } : { reply: given };
    let shaped: CheckedAnswer = { reply: given };
    if (own) {
      try {
        shaped = shapeRefusal(settings.generator, checks, given, {
          operation: hit.plan.operation.spec,
          operationId: hit.plan.operation.id,
          path: request.path,
          pathParams: hit.pathParams,
          headers: request.headers,
          query: request.query,
        });
      } catch (error) {
        settings.warn(`could not shape a refusal as documented: ${(error as Error).message}`, {
          operationId: hit.plan.operation.id,
        });
        const undocumented = refusalOfRequest(given);
        shaped = { reply: undocumented, refusal: { status: undocumented.status, documented: false } };
      }
    }
    const { reply } = shaped;
    // The mock's own problems fit no schema of the contract's: only a contract's body is checked.
    const broken =
      kindOf(reply.body) === undefined && reply.body !== undefined
        ? violationsOf(checks, hit, reply, settings.errors, checked)
        : [];
    const deprecated = deprecatedParameters(hit, request.query, request.headers);
    // A valid request to an operation without deprecated parameters (nearly every one) has nothing to add.
    if (broken.length === 0 && !reply.violations?.length && deprecated.length === 0) return shaped;
    const requestViolations = [...(reply.violations ?? []).map(fromRequest), ...deprecated];
    if (broken.length > 0) report(hit.plan.operation.id, reply, broken);
    const answer = broken.length > 0 && settings.errors ? invalidResponse(request.path, reply, broken) : reply;
    // Prism's header: the response's violations, then the request's.
    const header = headerText([...broken.map(bodyViolation), ...requestViolations]);
    return {
      ...shaped,
      reply: { ...answer, headers: { ...answer.headers, 'sl-violations': header } },
      ...(broken.length > 0 ? { responseViolations: broken } : {}),
    };
  };

  function report(operationId: string, reply: Reply, broken: BodyViolation[]): void {
    const listed = broken.map((v) => `${v.pointer || '(root)'}: ${v.message}`).join('; ');
    const key = `${operationId} ${reply.status} ${reply.contentType ?? ''} ${listed}`;
    if (logged.has(key) || logged.size >= MAX_LOGGED) return;
    logged.add(key);
    settings.warn(
      `${operationId} answers ${reply.status} with a body that breaks its schema ` +
        `(${listed})${settings.errors ? '; answered as a 500 (--errors)' : ''}. Reported once.`,
      { operationId, status: reply.status, violations: broken },
    );
  }
}

/**
 * How the body of an answer breaks its schema. A body that is one of the documented examples is checked once
 * per example (what a contract gets wrong); any other body (generated, or from state) only with `errors`, since
 * checking each generated body would compile every response schema in use (see SchemaChecks).
 */
function violationsOf(
  checks: SchemaChecks,
  hit: RouteHit,
  reply: Reply,
  errors: boolean,
  checked: WeakMap<object, BodyViolation[]>,
): BodyViolation[] {
  // Rendering says which example a body was copied from: most answers are decided here, at no cost.
  const { example, body } = reply;
  if (!example && !errors) return [];
  const key = example ?? (typeof body === 'object' && body !== null && Object.isFrozen(body) ? body : undefined);
  const known = key && checked.get(key);
  if (known) return known;
  const { spec } = hit.plan.operation;
  const content = documentedContent(spec, reply.status, reply.contentType);
  if (!content) return [];
  const found = findContentViolations(checks, spec, content, body).slice(0, MAX_VIOLATIONS);
  if (key) checked.set(key, found);
  return found;
}

/** The 500 of `--errors`: what the contract would have answered, and how its body breaks the schema. */
function invalidResponse(path: string, broken: Reply, violations: BodyViolation[]): Reply {
  const detail =
    `The ${broken.status} response the contract gives breaks its own schema: ` +
    violations.map((v) => `body ${v.pointer || '(root)'}: ${v.message}`).join('; ');
  const found = problem('invalidResponse', detail, {
    instance: path,
    violations: violations.map((v) => ({ location: 'body', pointer: v.pointer, message: v.message })),
  });
  // The request was fine: its own violations (if any) are what the journal keeps, not the response's.
  return {
    status: 500,
    headers: {},
    contentType: 'application/problem+json',
    body: found,
    violations: broken.violations,
    ...(broken.violationCount === undefined ? {} : { violationCount: broken.violationCount }),
  };
}

/** One entry of Prism's `sl-violations` header. */
type PrismViolation = AnswerViolation;

/** A request's violation as the `sl-violations` header lists it. */
export function fromRequest(v: Violation): PrismViolation {
  const code = v.code ?? '';
  // Missing credentials are the request's as a whole, as Prism places them.
  const location = code === 401 ? ['request'] : ['request', v.location, ...placed(v.pointer, code)];
  return { location, severity: 'Error', code, message: v.message };
}

/**
 * Prism's warnings for the deprecated parameters a request sends (`Query param productId is deprecated`): they
 * never refuse a request, and tell the client it relies on what the contract means to drop.
 */
function deprecatedParameters(
  hit: RouteHit,
  query: Record<string, string | string[]>,
  headers: Record<string, string | string[] | undefined>,
): PrismViolation[] {
  const deprecated = deprecatedOf(hit.plan.operation.spec);
  if (deprecated.length === 0) return NO_WARNINGS;
  const sent = {
    query: (name: string) => query[name] !== undefined,
    header: (name: string) => headers[name.toLowerCase()] !== undefined,
    path: (name: string) => hit.pathParams[name] !== undefined,
  };
  return deprecated
    .filter(({ where, name }) => sent[where](name))
    .map(({ where, name }) => ({
      location: ['request', where, name],
      severity: 'Warning' as const,
      code: 'deprecated',
      message: `${where[0]!.toUpperCase()}${where.slice(1)} param ${name} is deprecated`,
    }));
}

type Where = 'query' | 'header' | 'path';
const NO_WARNINGS: PrismViolation[] = [];
const DEPRECATED = new WeakMap<IHttpOperation, readonly { where: Where; name: string }[]>();

/** An operation's deprecated parameters, listed once per operation (nearly always none). */
function deprecatedOf(spec: IHttpOperation): readonly { where: Where; name: string }[] {
  let found = DEPRECATED.get(spec);
  if (!found) {
    const { request } = spec;
    const lists: [Where, readonly { name: string; deprecated?: boolean }[] | undefined][] = [
      ['query', request?.query],
      ['header', request?.headers],
      ['path', request?.path],
    ];
    found = lists.flatMap(([where, list]) =>
      (list ?? []).filter((p) => p.deprecated === true).map(({ name }) => ({ where, name })),
    );
    DEPRECATED.set(spec, found);
  }
  return found;
}

/** The most characters the header takes: a Node client refuses answers whose headers pass 16 KiB. */
const MAX_HEADER = 4096;

/**
 * The `sl-violations` header's value: as many violations as fit in {@link MAX_HEADER} characters (the journal
 * has them all), escaped to ASCII, since a header cannot carry other characters (Node would refuse the whole
 * answer). A list cut short starts `Too many violations! `, as Prism's does.
 */
export function headerText(violations: PrismViolation[]): string {
  const ascii = (text: string) =>
    text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const parts: string[] = [];
  let length = 2;
  for (const v of violations) {
    const part = ascii(JSON.stringify(v));
    if (parts.length > 0 && length + part.length + 1 > MAX_HEADER) return `Too many violations! [${parts.join(',')}]`;
    parts.push(part);
    length += part.length + 1;
  }
  return `[${parts.join(',')}]`;
}
