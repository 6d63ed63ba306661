// The journal as a Pact (specification v3): what the consumer sent and the answers it relied on, one
// interaction per distinct request shape and media type answered, with matching rules taken from the contract's
// schemas where they are plain (a type, a pattern, a format, an enum), so the provider is held to the contract,
// not to the values the mock happened to draw. GET /__mock/pact, mock.pact(), and mockGlobalSetup's `pact`
// option.
import { isObject } from '../lib/json-value.js';
import { bodyKind, formBodyText, mediaTypeOf } from '../http/body-kind.js';
import { responseHeader, type CallRecord } from '../journal/journal.js';
import type { OperationPlan } from '../plan/operation-plan.js';
import { mergedSchema } from '../prism/schema-check.js';

/** Who the pact is between. */
export interface PactParties {
  /** The front-end app, e.g. `web-app`. */
  consumer: string;
  /** The API, e.g. `membership`. */
  provider: string;
  /** With several APIs in one mock: the API whose calls make the pact, its paths as its provider serves them. */
  api?: string;
}

type Matcher = { match: 'type'; min?: number } | { match: 'regex'; regex: string };
type Rules = Record<string, { matchers: Matcher[] }>;

/** One request and the answer the consumer relied on. */
export interface PactInteraction {
  description: string;
  request: {
    method: string;
    path: string;
    query?: Record<string, string[]>;
    headers?: Record<string, string>;
    body?: unknown;
  };
  response: {
    status: number;
    headers?: Record<string, string>;
    body?: unknown;
    matchingRules?: { body?: Rules; header?: Rules };
  };
}

/** A Pact v3 document. */
export interface Pact {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
  metadata: {
    pactSpecification: { version: '3.0.0' };
    'membership-mock': { interactions: number; left_out: string[] };
  };
}

/** Why a call says nothing of what the consumer expects of the provider, or `undefined` when it does. */
export function leftOutOfPact(call: CallRecord): string | undefined {
  if (call.operationId === null) return 'no operation of the contract matched';
  if (call.fault === 'drop') return 'dropped on purpose, no answer';
  if (call.fault === 'failure') return 'an injected failure';
  if (call.answeredBy === 'override') return 'the test chose its answer (an override)';
  if (call.answeredBy === 'prefer') return 'the test chose its answer (Prefer)';
  if (call.violations.length > 0) return 'its request broke the contract';
  if (call.truncated || call.response.truncated) return 'a body longer than the journal keeps';
  if (call.bodyEncoding || call.response.bodyEncoding)
    return 'a body of bytes, not text (a Pact holds text and JSON bodies)';
  if (call.responseViolations) return "the contract's own answer broke its schema";
  return undefined;
}

/**
 * A Pact v3 of the calls: the first call of each request shape (operation, status, media type answered, query
 * names, body fields) becomes an interaction; calls {@link leftOutOfPact} are not in it, and `leftOut` (why
 * others were not) goes in its metadata. Credentials are never written (the journal holds none).
 * @example toPact(record.shapes().calls, served.plans, { consumer: 'web-app', provider: 'membership' })
 */
export function toPact(
  calls: readonly CallRecord[],
  plans: readonly OperationPlan[],
  parties: PactParties,
  leftOut: readonly string[] = [],
): Pact {
  const byId = new Map(plans.map((plan) => [plan.operation.id, plan]));
  const shapes = new Map<string, { call: CallRecord; plan: OperationPlan; mediaType: string | undefined }>();
  const skipped = [...leftOut];
  for (const call of calls) {
    const why = leftOutOfPact(call);
    const plan = call.operationId === null ? undefined : byId.get(call.operationId);
    if (why || !plan) {
      skipped.push(`${call.id} ${call.method} ${call.path}: ${why ?? 'its operation is gone from the contract'}`);
      continue;
    }
    const mediaType = answeredMediaType(call);
    const key = pactShape(call, mediaType);
    if (!shapes.has(key)) shapes.set(key, { call, plan, mediaType });
  }
  // Shapes that share an operation and a status are told apart by what differs: the media type answered (which
  // the request's Accept chose), then the names.
  const mediaTypes = new Map<string, Set<string | undefined>>();
  const counts = new Map<string, number>();
  for (const { call, mediaType } of shapes.values()) {
    const head = `${call.operationId} ${call.response.status}`;
    mediaTypes.set(head, (mediaTypes.get(head) ?? new Set()).add(mediaType));
    const group = `${head} ${mediaType}`;
    counts.set(group, (counts.get(group) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  const interactions = [...shapes.values()].map(({ call, plan, mediaType }) => {
    const head = `${call.operationId} ${call.response.status}`;
    const interaction = interactionOf(call, plan, {
      mediaType: (mediaTypes.get(head)?.size ?? 0) > 1,
      names: (counts.get(`${head} ${mediaType}`) ?? 0) > 1,
    });
    // Shapes the words do not tell apart (no body, and `{}`) still need descriptions of their own: a broker
    // refuses a pact with two alike.
    const times = (seen.get(interaction.description) ?? 0) + 1;
    seen.set(interaction.description, times);
    if (times > 1) interaction.description += ` #${times}`;
    return interaction;
  });
  return {
    consumer: { name: parties.consumer },
    provider: { name: parties.provider },
    interactions,
    metadata: {
      pactSpecification: { version: '3.0.0' },
      'membership-mock': { interactions: interactions.length, left_out: skipped.slice(0, 100) },
    },
  };
}

/**
 * What tells one request shape from another: operation, method, status, the media type answered (`mediaType`,
 * {@link answeredMediaType}), query names, body fields.
 */
export function pactShape(call: CallRecord, mediaType = answeredMediaType(call)): string {
  return [call.operationId, call.method, call.response.status, mediaType ?? '', shapeNames(call)].join('|');
}

/**
 * The media type of a call's answer: its Content-Type without parameters, lower case; `undefined` for none.
 * @example answeredMediaType(call) // 'text/csv' for `text/csv; charset=utf-8`
 */
export function answeredMediaType(call: Pick<CallRecord, 'response'>): string | undefined {
  return mediaTypeOf(responseHeader(call, 'content-type'));
}

/** The part of a request's shape its names make: query names, then body fields (or the body's type), sorted. */
export function shapeNames(call: CallRecord): string {
  const body = isObject(call.body) ? Object.keys(call.body).sort().join(',') : typeof call.body;
  return `${Object.keys(call.query).sort().join(',')}|${body}`;
}

/** What an interaction's description names to tell it from the others of its operation and status. */
interface TellApart {
  /** The media type answered: the operation answered others too. */
  mediaType: boolean;
  /** The query and body names: the operation answered other names in the same media type. */
  names: boolean;
}

function interactionOf(call: CallRecord, plan: OperationPlan, tellApart: TellApart): PactInteraction {
  const { operation } = plan;
  const queryNames = Object.keys(call.query);
  const fields = isObject(call.body) ? Object.keys(call.body) : [];
  const apart = tellApart.names
    ? ` (${
        [queryNames.length ? `query ${queryNames.join(', ')}` : '', fields.length ? `body ${fields.join(', ')}` : '']
          .filter(Boolean)
          .join('; ') || 'no query, no body fields'
      })`
    : '';
  const requestType = header(call.headers, 'content-type');
  // A form is written as the text a verifier sends (as it was sent, else made from its fields), never as JSON
  // beside its type. A JSON string stays a JSON value (`"body": "hello"`), as Pact's own files write one.
  const sent = bodyKind(requestType).kind === 'form' ? (call.bodyText ?? formBodyText(call.body)) : call.body;
  const responseType = responseHeader(call, 'content-type');
  const response = plan.responses.lookup(call.response.status);
  // Which of several documented media types answers is the request's Accept: a verifier sends it too.
  const chosen = tellApart.mediaType || (response?.contents?.length ?? 0) > 1;
  const accept = chosen ? header(call.headers, 'accept') : undefined;
  const sentHeaders = {
    ...(call.body !== undefined && requestType ? { 'Content-Type': requestType } : {}),
    ...(accept ? { Accept: accept } : {}),
  };
  const mediaType = mediaTypeOf(responseType);
  const content = response?.contents?.find((c) => c.mediaType.toLowerCase() === mediaType);
  const body: Rules = {};
  const answer =
    call.response.body !== undefined && content?.schema
      ? expected(call.response.body, content.schema, '$', body)
      : call.response.body;
  const headerRules: Rules = mediaType
    ? { 'Content-Type': { matchers: [{ match: 'regex', regex: `^${escapeRegex(mediaType)}(\\s*;.*)?$` }] } }
    : {};
  return {
    description: `${operation.id}: ${call.method} ${operation.path} → ${call.response.status}${
      tellApart.mediaType && mediaType ? ` ${mediaType}` : ''
    }${apart}`,
    request: {
      method: call.method,
      path: call.path,
      ...(queryNames.length
        ? {
            query: Object.fromEntries(
              Object.entries(call.query).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]),
            ),
          }
        : {}),
      ...(Object.keys(sentHeaders).length ? { headers: sentHeaders } : {}),
      ...(call.body !== undefined ? { body: sent } : {}),
    },
    response: {
      status: call.response.status,
      ...(responseType ? { headers: { 'Content-Type': responseType } } : {}),
      ...(answer !== undefined ? { body: answer } : {}),
      ...(Object.keys(body).length || mediaType
        ? {
            matchingRules: {
              ...(Object.keys(body).length ? { body } : {}),
              ...(mediaType ? { header: headerRules } : {}),
            },
          }
        : {}),
    },
  };
}

const DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';
const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** A property left out of the expected body. */
const OMIT = Symbol('omit');

/**
 * The answer as the consumer relied on it, and matching rules for it as its schema describes it: a regex for
 * a pattern, an enum or a date/time/uuid format, a type otherwise; arrays by their items (`[*]`, at least
 * none). A property the schema allows to be null beside another type is left out of the expected body,
 * whatever it held: Pact v3 cannot say "a string or null", and the answer drawn held one by chance. A value the schema
 * does not describe plainly
 * (oneOf, anyOf) is matched by type.
 */
function expected(value: unknown, schema: unknown, path: string, rules: Rules): unknown {
  const plain = isObject(schema) ? (mergedSchema(schema as object) as Record<string, unknown>) : {};
  if (Array.isArray(value)) {
    rules[path] = { matchers: [{ match: 'type', min: 0 }] };
    return value.map((item, i) => {
      // Every element is matched against the first one's rules.
      const kept = expected(item, plain.items, `${path}[*]`, i === 0 ? rules : {});
      return kept === OMIT ? null : kept;
    });
  }
  if (isObject(value)) {
    const properties = isObject(plain.properties) ? plain.properties : {};
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const name = propertyPath(path, key);
      const described = (properties as Record<string, unknown>)[key];
      // A property that may be null or something else is left out whatever it held this time: the provider
      // may answer either, and Pact v3 has no matcher for "a string or null" (extra keys are allowed).
      if (isObject(described) && allowsOtherThanNull(mergedSchema(described as object) as Record<string, unknown>))
        continue;
      // A name no path can hold gets no rule (one would make the whole file unreadable): its object is matched
      // by type, which Pact applies to what is under it, and its own rules go nowhere.
      if (name === undefined) rules[path] ??= { matchers: [{ match: 'type' }] };
      const kept = expected(item, described, name ?? path, name === undefined ? {} : rules);
      if (kept !== OMIT) out[key] = kept;
    }
    return out;
  }
  if (value === null) return allowsOtherThanNull(plain) ? OMIT : null;
  if (typeof value === 'string') {
    const regex =
      typeof plain.pattern === 'string'
        ? plain.pattern
        : Array.isArray(plain.enum) && plain.enum.every((e) => typeof e === 'string')
          ? `^(${(plain.enum as string[]).map(escapeRegex).join('|')})$`
          : plain.format === 'date-time'
            ? DATE_TIME
            : plain.format === 'date'
              ? DATE
              : plain.format === 'uuid'
                ? UUID
                : undefined;
    rules[path] = { matchers: [regex ? { match: 'regex', regex } : { match: 'type' }] };
    return value;
  }
  rules[path] = { matchers: [{ match: 'type' }] };
  return value;
}

/**
 * A property's Pact path under `path`: `.name` for an identifier, `['name']` for any other name, and `undefined`
 * for a name no Pact path can hold: Pact's quoted names have no escapes, so none with a `'`, and none empty.
 * @example propertyPath('$', 'a b') // "$['a b']"
 */
function propertyPath(path: string, key: string): string | undefined {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return `${path}.${key}`;
  if (key === '' || key.includes("'")) return undefined;
  return `${path}['${key}']`;
}

/** Whether a schema that allows null allows something else too (`nullable: true`, `type: [string, null]`). */
function allowsOtherThanNull(schema: Record<string, unknown>): boolean {
  if (schema.nullable === true && schema.type !== undefined) return true;
  if (Array.isArray(schema.type)) return schema.type.some((t) => t !== 'null');
  return ['oneOf', 'anyOf'].some((key) => Array.isArray(schema[key]) && (schema[key] as unknown[]).length > 1);
}

function header(headers: Record<string, string | string[]>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
