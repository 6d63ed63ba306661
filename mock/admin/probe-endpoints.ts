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
    'GET /health/live': () => json({ status: 'live' }, 200, { 'Cache-Control': 'no-store' }),
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
 * 200 while the mock can answer the contract: it is not closing, and the state file (if any) takes changes.
 * Else 503 saying which; the details (a file's path, its error) stay behind the token, in GET /__mock/health.
 */
function ready(context: MockContext, closing: boolean, instance: string): Reply {
  const noStore = { 'Cache-Control': 'no-store' };
  if (closing) {
    const detail = 'The mock is closing: it finishes the requests in flight and takes no new connection.';
    return problemReply(problem('notReady', detail, { instance }), noStore);
  }
  if (context.sessions.get('')!.store.info().failing === true) {
    const detail =
      'The state file refuses changes (a write failed, or the file was deleted or replaced): ' +
      'GET /__mock/health, with the admin token, says why.';
    return problemReply(problem('notReady', detail, { instance }), noStore);
  }
  const { title, version } = context.served.contract;
  return json({ status: 'ready', contract: { title, version } }, 200, noStore);
}
