// MSW request handlers that answer a contract with the mock's own engine: the same routing, validation,
// refusals, state, generation, Prefer, overrides and faults as the server, calls recorded in a journal, and the
// same in-process test API (control/test-api.ts). No Node.js here: it is meant to run in a service worker too.
// In Node, `membership-mock/msw` (mock/msw.ts) also takes a contract's path, and installs Prism's modules.
import { http, HttpResponse, type HttpHandler } from 'msw';
import { buildContract, CONTRACT_OBJECT, isContract, type Contract } from '../contract/contract.js';
import { apiOfPath } from '../contract/combine-contracts.js';
import { noDocuments } from '../contract/no-documents.js';
import { createControl } from '../control/control.js';
import type { UntypedOperations } from '../control/operation-types.js';
import { createTestApi, type TestApi } from '../control/test-api.js';
import { admit, answerRequest, type Transport } from '../engine/answer-request.js';
import { createCheckAndRecord } from '../engine/check-and-record.js';
import { describe, errorReply, forgetBody } from '../engine/error-reply.js';
import { recordDrop } from '../engine/record-call.js';
import { refuseSessionName } from '../handler/guards/select-session.js';
import { bodyText, FRAMING, type Reply } from '../http/reply.js';
import { ignoresBody } from '../http/request-body.js';
import { buildContext } from '../instance/build-context.js';
import type { MockOptions } from '../instance/options.js';
import { createRedactor } from '../journal/redact.js';
import { isUnder, withoutPrefix } from '../lib/path-prefix.js';
import { isMatch, matchRoute } from '../plan/match-route.js';
import type { HarCreator } from '../reports/har-export.js';
import { FetchExchange } from './fetch-exchange.js';
import { readFetchBody } from './read-fetch-body.js';

/** What the handlers take: the mock's options, less those of a server (admin API, CORS, hosts, proxy, state file). */
export interface HandlersOptions extends Omit<
  MockOptions,
  'store' | 'proxy' | 'proxies' | 'cors' | 'admin' | 'allowedHosts'
> {
  /**
   * The contract: an OpenAPI 3.x (or Swagger 2.0) document as an object (parsed JSON or YAML, every schema it
   * refers to inside it), or a contract loaded already (`loadContract`). In Node, `membership-mock/msw` also
   * takes a path or URL.
   */
  contract: Contract | object;
  /**
   * Where the API is: `https://api.example.com/v1`, or a path (`/api`) on any origin. Every request under it is
   * the contract's (an unknown path answers 404, as the server does). Without it, a request whose path no
   * operation has is left to the next handler (MSW's `onUnhandledRequest` says so).
   */
  baseUrl?: string;
}

/** The handlers of a contract, and the test API of the mock behind them (as `startMock`'s, in-process). */
export interface ContractHandlers<Ops = UntypedOperations> extends TestApi<Ops> {
  /** MSW request handlers: `setupServer(...mock.handlers)` (or `server.use(...)`). */
  handlers: HttpHandler[];
  /** The contract served. */
  readonly contract: Contract;
}

/** What the platform adds: the name a HAR export gives its creator. */
export interface HandlersPlatform {
  creator?: () => HarCreator;
}

/** Statuses whose responses have no body (the Fetch API refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);
const CHARSET = /;\s*charset=/i;

/**
 * Builds MSW handlers for a contract, with the test API of the mock behind them.
 * @example
 * const mock = await createHandlers({ contract: openapiDocument, seed: 7 });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * await fetch('https://api.example.com/members/m1/passes', { headers: { Authorization: 'Bearer t' } });
 * expect(mock.calls({ operationId: 'listPasses' })).toHaveLength(1);
 */
export async function createHandlers<Ops = UntypedOperations>(
  options: HandlersOptions,
  { creator = () => ({ name: 'membership-mock', version: 'unknown' }) }: HandlersPlatform = {},
): Promise<ContractHandlers<Ops>> {
  const { contract: given, baseUrl, ...rest } = options;
  const contract = isContract(given) ? given : await buildContract(given, CONTRACT_OBJECT, noDocuments);
  const context = buildContext(contract, { ...rest, cors: false, admin: false });
  const control = createControl(context, { creator });
  const checkAndRecord = createCheckAndRecord(context);
  const redact = context.options.journalSecrets ? undefined : createRedactor(() => context.served.secrets);
  const log = (message: string): void => context.logger.error(message);
  const under = scopeOf(baseUrl);
  const answers = new WeakMap<FetchExchange, (response: Response) => void>();

  const transport: Transport<FetchExchange> = {
    finish: (ex, reply) => answers.get(ex)!(responseOf(ex, checkAndRecord(ex, reply))),
    drop(ex) {
      recordDrop(ex);
      answers.get(ex)!(HttpResponse.error());
    },
    later(ex, ms, action) {
      if (ms <= 0) return action();
      setTimeout(() => {
        try {
          action();
        } catch (error) {
          transport.fail(ex, error);
        }
      }, ms);
    },
    fail(ex, error) {
      const answer = answers.get(ex)!;
      try {
        const reply = errorReply(context, ex, error, log);
        forgetBody(ex, error);
        try {
          transport.finish(ex, reply);
        } catch (failure) {
          // Recording failed too: the app still gets its answer.
          log(`could not record ${ex.method} ${ex.path}: ${describe(failure)}`);
          answer(responseOf(ex, reply));
        }
      } catch (failure) {
        // Even the problem could not be made: the app's fetch fails, as when a server closes the connection.
        log(`could not answer ${ex.method} ${ex.path} after an error: ${describe(failure)}`);
        answer(HttpResponse.error());
      }
    },
  };

  // On a RegExp, not '*': MSW decodes a '*' match, and a malformed percent-encoding (`/m%E0`) made every
  // request fail with its own 500, other origins' too. The path is the engine's to read (a 400, as the server).
  const handler = http.all(/^/, async ({ request }) => {
    const url = new URL(request.url);
    // Routed on the path under the base URL; answered (Location, instance, journal) on the path as sent.
    const routePath = under(url);
    if (routePath === undefined) return undefined;
    const ex = new FetchExchange(context, request, url.pathname, url.search);
    ex.redact = redact;
    const answered = new Promise<Response>((resolve) => answers.set(ex, resolve));
    try {
      const routed = matchRoute(context.served, ex.method, routePath, false, ex.path);
      // Not the contract's, unless a base URL says every path under it is: the next handler's, whatever it carries.
      if (!isMatch(routed) && baseUrl === undefined && routed.status === 404) return undefined;
      const refusal = refuseSessionName({ headers: ex.requestHeaders, path: ex.path, query: ex.query });
      if (refusal) return (transport.finish(ex, refusal), answered);
      ex.api = isMatch(routed) ? routed.plan.operation.api : apiOfPath(context.served.contract, routePath);
      if (!isMatch(routed)) return (transport.finish(ex, routed), answered);
      ex.match = routed;
      admit(context, ex);
      // A body sent to an operation that takes none is read too (to refuse it, 415), unless its method ignores it.
      const undeclared = request.body !== null && !ignoresBody(ex.method);
      if (routed.plan.takesBody || undeclared) await readFetchBody(request, ex, context.options.bodyLimit);
      answerRequest(context, ex, transport);
    } catch (error) {
      transport.fail(ex, error);
    }
    return answered;
  });

  const mock = {
    handlers: [handler],
    get contract() {
      return context.served.contract;
    },
    ...createTestApi(control),
  };
  // The operation types exist only for the compiler: the handlers are the same whatever they are.
  return mock as unknown as ContractHandlers<Ops>;
}

/** Which requests are the contract's: the path under the base URL, or `undefined` for another's. */
function scopeOf(baseUrl: string | undefined): (url: URL) => string | undefined {
  if (baseUrl === undefined) return (url) => url.pathname;
  const base = baseUrl.startsWith('/') ? undefined : new URL(baseUrl);
  const prefix = (base ? base.pathname : baseUrl).replace(/\/+$/, '');
  return (url) => {
    if (base && url.origin !== base.origin) return undefined;
    if (prefix === '') return url.pathname;
    return isUnder(url.pathname, prefix) ? withoutPrefix(url.pathname, prefix) : undefined;
  };
}

/** The reply as a Fetch response, as handler/write-reply.ts writes it on Node: the request id first. */
function responseOf(ex: FetchExchange, reply: Reply): Response {
  const headers = new Headers({ 'X-Request-Id': ex.requestId });
  for (const name in reply.headers) if (!FRAMING.test(name)) headers.set(name, reply.headers[name]!);
  const noBody = ex.method === 'HEAD' || NO_BODY.has(reply.status);
  if (reply.body === undefined && !reply.chunks) return new HttpResponse(null, { status: reply.status, headers });
  const type = reply.contentType ?? 'application/json';
  headers.set('Content-Type', CHARSET.test(type) ? type : `${type}; charset=utf-8`);
  const text = reply.chunks ? [...reply.chunks].join('') : (reply.text ?? bodyText(reply) ?? '');
  return new HttpResponse(noBody ? null : text, { status: reply.status, headers });
}
