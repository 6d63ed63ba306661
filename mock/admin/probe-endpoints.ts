// What an orchestrator asks: is the process up (liveness), can it answer the contract (readiness), and its
// metrics. The probes hold no data and take no token (a kubelet's probe sends none); the metrics do.
import { problem } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import type { MockContext } from '../instance/mock-context.js';
import type { MockMetrics } from '../reports/metrics.js';
import { json, type AdminEndpoint as Endpoint } from './admin-endpoint.js';

const LIVE = '/__mock/health/live';
const READY = '/__mock/health/ready';

/** What the probes need beyond the context: whether the mock is closing, and its metrics. */
export interface ProbeParts {
  /** `true` once the server began to close (see MockApp.endStreams). */
  closing: () => boolean;
  metrics?: MockMetrics;
}

/**
 * Whether a request is a probe, answered without the admin token: a GET or HEAD of the live or ready path.
 * @example isProbe('GET', '/__mock/health/ready') // true
 */
export function isProbe(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && (path === LIVE || path === READY);
}

/**
 * The endpoints, by `METHOD /path` below `/__mock`: liveness, readiness, and the metrics (behind the token).
 * @example probeEndpoints(context, { closing: () => false, metrics })['GET /health/live']
 */
export function probeEndpoints(context: MockContext, { closing, metrics }: ProbeParts): Record<string, Endpoint> {
  return {
    'GET /health/live': ({ instance }) => live(context, instance),
    'GET /health/ready': ({ instance }) => ready(context, closing(), instance),
    ...(metrics && {
      'GET /metrics': async () => ({
        status: 200,
        headers: { 'Cache-Control': 'no-store' },
        contentType: metrics.contentType,
        body: await metrics.text(),
      }),
    }),
  };
}

/**
 * 200 while the mock can answer the contract: it is not closing, and its state file (if any) is still the file
 * at its path. Else 503 saying which; the details (the file's path) stay behind the token, in GET /__mock/health.
 * A write that failed does not make the mock unready: reads are answered, each change refused says why, and a
 * probe taking the traffic away would leave no write to show the file works again.
 */
function ready(context: MockContext, closing: boolean, instance: string): Reply {
  if (closing) {
    const detail = 'The mock is closing: it finishes the requests in flight and takes no new connection.';
    return problemReply(problem('notReady', detail, { instance }), NO_STORE);
  }
  if (stateFileLost(context)) return problemReply(problem('notReady', LOST, { instance }), NO_STORE);
  const store = context.sessions.get('')!.store.info();
  if (store.kind === 'redis' && store.failing)
    return problemReply(problem('notReady', SHARED_AWAY, { instance }), NO_STORE);
  const { title, version } = context.served.contract;
  return json({ status: 'ready', contract: { title, version } }, 200, NO_STORE);
}

/** 200 while the process answers; 503 once its state file was deleted or replaced: only a restart mends that. */
function live(context: MockContext, instance: string): Reply {
  if (stateFileLost(context)) return problemReply(problem('notLive', LOST, { instance }), NO_STORE);
  return json({ status: 'live' }, 200, NO_STORE);
}

const NO_STORE = { 'Cache-Control': 'no-store' };
const LOST =
  'The state file was deleted or replaced while the mock ran: changes are refused, and a restart serves the ' +
  'file at its path again. GET /__mock/health, with the admin token, says which.';

const SHARED_AWAY =
  'The Redis server the replicas share does not answer: requests that need it are answered 503 ' +
  '(store-unavailable) until it does again; the mock reconnects by itself.';

function stateFileLost(context: MockContext): boolean {
  return context.sessions.get('')!.store.info().lost === true;
}
