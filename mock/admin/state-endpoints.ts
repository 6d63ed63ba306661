// The admin API's whole state of a session: GET and PUT /__mock/state, validated as fixtures are; and how a
// refused state or record is answered (record-endpoints.ts takes one record at a time).
import type { MockControl } from '../control/control.js';
import { problem, type Violation } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import { isWrapped, type StateError } from '../state/check-snapshot.js';
import type { Outcome } from '../control/control.js';
import type { StoreSnapshot } from '../state/store.js';
import { streamed, type AdminEndpoint } from './admin-endpoint.js';

/**
 * The largest body `PUT /__mock/state` takes. Other admin bodies are small (256 KiB), but a whole state is
 * what `GET /__mock/state` answered: with our contract, a session full at the default limits (1500 records)
 * is about 0.4 MB of JSON, and 1.35 MB pretty-printed with every string at its maximum (names of 100 emoji,
 * a member per record). 4 MiB takes that with room for a larger record; a larger state is for --data. The
 * records are counted against the limits before any is made or checked, so the body's size bounds the cost.
 */
export const STATE_BODY_LIMIT = 4 * 1024 * 1024;

/** Where the state is; a collection's or a record's path follows it. */
export const STATE = '/__mock/state';

/**
 * `GET /state` and `PUT /state`, for the admin API's table.
 * @example stateEndpoints(control)['PUT /state'](request) // 200 { collections } or 422 naming the record
 */
export function stateEndpoints(control: MockControl): Record<string, AdminEndpoint> {
  return {
    'GET /state': ({ session }) => streamed(control.stateText(session.name)),
    'PUT /state': ({ ex, session, body, instance }) => {
      if (body === undefined) return noBody(ex.method, instance, 'the state, { "collections": { ... } }');
      const answer = (result: Outcome<StoreSnapshot>): Reply => {
        if (result.ok) return streamed(control.stateText(session.name));
        // Pointers lead into the body as it was sent: `{ collections: { ... } }`, or the bare map.
        const prefix = isWrapped(body) ? '/collections' : '';
        return refusal(result.error.kind as RefusalKind, result.error.state!, instance, prefix);
      };
      // Alone, a large state is replaced a slice at a time; a replica replaces it in its section, at once.
      const result = control.setStateGradually(session.name, body, `PUT ${STATE}`);
      return result instanceof Promise ? result.then(answer) : answer(result);
    },
  };
}

/**
 * The problem of a refused state or record: the fixtures' message, and a violation per thing wrong, pointing
 * into the body (`prefix`, then the collection, the record's index and the field).
 * @example refusal('invalidBody', error, '/__mock/state', '/collections') // 422,
 * /collections/~1members~1m1~1passes/0/status
 */
/** The problems a refused state or record is answered with. */
export type RefusalKind = 'invalidBody' | 'storageFull' | 'payloadTooLarge';

export function refusal(kind: RefusalKind, error: StateError, instance: string, prefix = ''): Reply {
  return problemReply(problem(kind, error.message, { instance, violations: violationsOf(error, prefix) }));
}

/**
 * The violations of a refused state: one per issue, its pointer into the body (`prefix`, the collection, the
 * record's index, the field: `/collections/~1members~1m1~1passes/0/status`).
 */
function violationsOf(error: StateError, prefix: string): Violation[] {
  const { collection, index, issues = [{ pointer: '', message: error.message }] } = error.place;
  let at = prefix;
  if (collection !== undefined) at += `/${escape(collection)}`;
  if (index !== undefined) at += `/${index}`;
  return issues.map(({ pointer, message }) => ({ location: 'body', pointer: `${at}${pointer}`, message }));
}

/** A JSON pointer's reference token for a key (`/members/m1` → `~1members~1m1`). */
function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A 400 for a change sent without a JSON body. */
export function noBody(method: string, instance: string, what: string): Reply {
  const detail = `${method} ${withoutQuery(instance)} takes ${what} as JSON: send it with Content-Type: application/json.`;
  const violations: Violation[] = [{ location: 'body', pointer: '', message: 'required' }];
  return problemReply(problem('missingBody', detail, { instance, violations }));
}

/** A request target without its query and a trailing slash. */
export function withoutQuery(target: string): string {
  const path = target.split('?')[0]!;
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
