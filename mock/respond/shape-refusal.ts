// Every refusal is an answer the contract documents: the mock's own problem for a routed request becomes the
// operation's documented response for that status (its media type, a body that fits its schema), and only
// where the operation documents nothing fitting does the mock's own problem+json go out.
import { bodyKind } from '../http/body-kind.js';
import type { Refusal } from '../journal/call-record.js';
import type { IHttpOperation, IHttpOperationResponse, IMediaTypeContent } from '@stoplight/types';
import type { BodyGenerator } from '../generate/generate-body.js';
import type { ResponseChoice } from '../plan/choose-response.js';
import { findContentViolations, type SchemaChecks } from '../prism/check-response.js';
import type { Reply } from '../http/reply.js';
import { parsePrefer } from '../http/parse-prefer.js';
import { renderResponse } from './render-response.js';
import { withReasons } from './refusal-body.js';
import { kindOf, problem, withStatus, type Problem, type ProblemKind } from '../http/problems.js';
import { bundleOf } from '../schema/operation-bundle.js';

export type { Refusal };

/** The request facts a refusal is shaped with. */
export interface RefusalRequest {
  operation: IHttpOperation;
  operationId: string;
  /** The path as received (the problem's `instance`) and as routed, with its parameters. */
  path: string;
  pathParams: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | string[]>;
}

/**
 * The documented statuses a problem of a kind may be answered with, in order. A request that breaks the
 * contract answers the status the operation documents for it: a body that breaks its schema a 422 (else 400),
 * anything else a 400 (else 422), a media type the operation does not take 415 (else 422, 400, as Prism does).
 * Every other problem answers its own status only. Then the class of the problem's own status (`4XX`), then
 * `default`, answer that status (422 for a request that breaks the contract, as Prism answers).
 */
const STATUSES: Partial<Record<ProblemKind, readonly number[]>> = {
  invalidBody: [422, 400],
  invalidRequest: [400, 422],
  missingBody: [400, 422],
  malformedJson: [400, 422],
  unsupportedMediaType: [415, 422, 400],
  // A create of an id the client chose that is taken: a conflict, else refused as a body the state cannot take.
  recordExists: [409, 422, 400],
};

/** Where the operation documents nothing fitting, a request that breaks the contract answers 422, as Prism does. */
const UNDOCUMENTED: Partial<Record<ProblemKind, number>> = { invalidRequest: 422, invalidBody: 422, missingBody: 422 };

/**
 * The mock's own refusal of a routed request with the status it answers where nothing fitting is documented:
 * the one place, with {@link STATUSES}, that decides a refusal's status (its template says the admin API's).
 */
export function refusalOfRequest(reply: Reply): Reply {
  const kind = kindOf(reply.body);
  const status = kind === undefined ? undefined : UNDOCUMENTED[kind];
  if (status === undefined || status === reply.status) return reply;
  return { ...reply, status, body: withStatus(reply.body as Problem, status) };
}

/**
 * A refusal's answer: the documented response when the operation has one for the problem (see
 * {@link STATUSES}), else the mock's own problem as it is. Anything that is not one of the mock's own problems
 * is returned as it is, with no refusal.
 * @example shapeRefusal(generator, checks, reply, request).refusal // { status: 422, documented: true }
 */
export function shapeRefusal(
  generator: BodyGenerator,
  checks: SchemaChecks,
  reply: Reply,
  request: RefusalRequest,
): { reply: Reply; refusal?: Refusal } {
  reply = refusalOfRequest(reply);
  const own = reply.body as Problem;
  const kind = kindOf(own);
  // A 5xx is the mock failing (a schema too complex to sample), not a refusal of the request: sent as it is.
  if (kind === undefined || reply.status >= 500) return { reply };
  const found = findDocumented(request.operation.responses, STATUSES[kind] ?? [reply.status], reply.status);
  if (!found) return { reply, refusal: { status: reply.status, documented: false } };
  const { response, status } = found;
  const content = contentOf(response);
  // `Prefer: example=` names the example when it asks for the status the refusal answers (as Prism does).
  const prefer = parsePrefer(request.headers.prefer, request.query);
  const wish = prefer.ok ? prefer.preferences : {};
  const exampleKey = wish.example !== undefined && wish.code === status ? wish.example : undefined;
  if (exampleKey !== undefined && !content?.examples?.some((e) => e.key === exampleKey)) {
    const detail = `Prefer example=${exampleKey} is not an example of the ${status} response of ${request.operationId}.`;
    const missing = problem('notDocumented', detail, { instance: request.path });
    return {
      reply: { ...reply, status: 404, headers: {}, body: missing },
      refusal: { status: 404, documented: false },
    };
  }
  const choice: ResponseChoice = { status, response, ...(content ? { content } : {}), exampleKey };
  const rendering = {
    operationId: request.operationId,
    choice,
    dynamic: false,
    key: `refusal|${status}`,
    // A documented error schema may contain itself (Stripe's): it is sampled through the operation's bundle.
    bundle: bundleOf(request.operation),
  };
  const where = { path: request.path, pathParams: request.pathParams };
  let rendered = renderResponse(generator, rendering, where);
  // The documented body could not be made (too complex to sample, an object under text/plain): our own problem.
  if (rendered.status !== status) return { reply, refusal: { status: reply.status, documented: false } };
  // Prism's static sample ends a recursion with `{}`, which may lack the fields a schema requires: without an
  // example to answer, a sample that breaks the schema gives way to a generated body, which fits.
  if (
    content?.schema &&
    !content.examples?.length &&
    findContentViolations(checks, request.operation, content, rendered.body).length > 0
  ) {
    rendered = renderResponse(generator, { ...rendering, dynamic: true }, where);
  }
  // An example the client named is what it asked to see, word for word (as Prism serves it).
  const body =
    content?.schema && exampleKey === undefined
      ? withReasons(checks, rendered.body, own, status, content, request.operation)
      : rendered.body === undefined && content && bodyKind(content.mediaType).kind === 'json'
        ? // JSON documented with no schema and no example takes any body: the mock's problem says why.
          { ...own, status }
        : rendered.body;
  // A body our problem's fields went into is no longer the example it was copied from.
  const { example, ...made } = rendered;
  return {
    reply: {
      ...made,
      ...(example && body === rendered.body ? { example } : {}),
      body,
      // The refusal's own headers (`WWW-Authenticate`) are what the client must act on: they win.
      headers: { ...rendered.headers, ...reply.headers },
      violations: reply.violations,
      ...(reply.violationCount === undefined ? {} : { violationCount: reply.violationCount }),
    },
    refusal: { status, documented: true },
  };
}

/**
 * The documented response for the first of `statuses` the operation documents exactly; else its class of
 * `status` (`4XX`), else `default`, answered with `status` (a request that breaks the contract: 422, Prism's).
 */
function findDocumented(
  responses: readonly IHttpOperationResponse[],
  statuses: readonly number[],
  status: number,
): { response: IHttpOperationResponse; status: number } | undefined {
  for (const code of statuses) {
    const exact = responses.find((r) => r.code === String(code));
    if (exact) return { response: exact, status: code };
  }
  const range = responses.find((r) => r.code.toUpperCase() === `${String(status)[0]}XX`);
  const fallback = range ?? responses.find((r) => r.code.toLowerCase() === 'default');
  return fallback && { response: fallback, status };
}

/**
 * The content a refusal is sent with, as Prism picks it: the first with examples, else with a schema, else the first.
 */
function contentOf(response: IHttpOperationResponse): IMediaTypeContent | undefined {
  const contents = (response.contents ?? []).filter((c) => c.mediaType);
  return (
    contents.find((c) => (c.examples?.length ?? 0) > 0) ?? contents.find((c) => c.schema !== undefined) ?? contents[0]
  );
}
