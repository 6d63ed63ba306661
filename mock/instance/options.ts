// Every option of the mock, typed once and defaulted in one place.
import type { Contract } from '../contract/contract.js';
import { consoleSink, type LogSink } from './logger.js';
import type { Faults } from '../respond/faults.js';
import type { Store, StoreSnapshot } from '../state/store.js';
import type { ProxyOptions } from '../respond/proxy-rules.js';
import type { CallRecord } from '../journal/call-record.js';
import type { AsOf } from './dated-generators.js';

/** How the mock behaves, whatever the process around it. */
export interface MockOptions {
  /**
   * Seed for generated bodies: the same seed and the same requests give the same bodies, across restarts.
   * @default 1
   */
  seed?: number | string;
  /**
   * Largest request body accepted, in bytes; larger bodies answer 413.
   * @default 65536 (64 KiB, the contract's assumption 11)
   */
  bodyLimit?: number;
  /**
   * `true` generates success bodies from the schemas; `false` serves the contract's examples first.
   * `Prefer: dynamic=true|false` overrides it per request.
   * @default true
   */
  dynamic?: boolean;
  /**
   * Check the contract's security requirements (a bearer token, an API key...) and answer 401 without them.
   * @default true
   */
  checkSecurity?: boolean;
  /**
   * Check every body against its documented schema (examples, generated and state's bodies) and answer one
   * that breaks it with a 500 problem listing the violations, as Prism's `--errors` does. Off, only examples are
   * checked, and one that breaks its schema is sent with an `sl-violations` header; either way the call's
   * journal entry lists the violations (`responseViolations`) and one log line says so.
   * @default false
   */
  errors?: boolean;
  /**
   * How many calls the journal keeps; the oldest are dropped first, and `/__mock/calls` says how many.
   * @default 10000
   */
  journalLimit?: number;
  /**
   * Keep credentials in the journal as they were sent. Off, `Authorization`, `Proxy-Authorization`,
   * `Cookie`, `Set-Cookie` and the contract's API keys are recorded as their scheme and a fingerprint
   * (`Bearer [redacted sha256:1a2b3c4d]`, see `redactSecret`).
   * @default false
   */
  journalSecrets?: boolean;
  /**
   * How many bytes the journals of every session may hold together (an estimate of what each call costs:
   * its texts and the objects around them). Past it, the oldest call of any session is dropped first.
   * @default 67108864 (64 MiB)
   */
  journalBytes?: number;
  /**
   * Longest request or response body the journal keeps whole, in characters of its text; a longer one is
   * kept as its first characters and the call says so (`truncated: { bytes }`).
   * @default 16384
   */
  journalBodyLimit?: number;
  /**
   * How many named sessions (`X-Mock-Session`) are kept; past it, the least recently used is dropped. A whole
   * number from 1 to 100,000.
   * @default 100
   */
  sessionLimit?: number;
  /**
   * How many records one collection (`/members/m1/passes`) may hold, placeholders included; a create past it
   * answers 507 and stores nothing. Fixtures are never refused, but count.
   * @default 1000
   */
  collectionLimit?: number;
  /**
   * The bytes (characters of JSON) that what clients wrote may take, across every session's memory: created and
   * replaced records, deleted placeholders' ids, state set with `PUT /__mock/state`. Placeholders are never
   * counted (they are made again from the seed), so reading any number of members never fills it. A change past
   * it answers 507 naming the budget, and stores nothing. Fixtures are never refused, but count in each session.
   * The default holds about 150,000 created passes (a long demo day) within the 512 MB heap `npm start` gives.
   * With `stateFile`, the file's own budget is {@link FILE_STATE_BYTES} unless one is given.
   * @default 67108864 (64 MiB)
   */
  stateBytes?: number;
  /**
   * Answer every operation from generated bodies and keep no state, as Prism does.
   * @default false (collections keep state: a created record is listed, read and deleted)
   */
  stateless?: boolean;
  /**
   * How many placeholder records a collection starts with the first time a member's collection is used.
   * @default 3
   */
  placeholders?: number;
  /**
   * Where created records get their time: `system` is the wall clock (they look created now); `seed`
   * counts minutes from the start of {@link asOf} (the seed's anchor by default), so a whole session repeats byte
   * for byte across restarts.
   * @default 'system'
   */
  clock?: 'system' | 'seed';
  /**
   * The day placeholders are read as of. `seed`: a day of 2025 derived from the seed, so the data is the same
   * byte for byte on every day (what tests want). `today`: the UTC day the mock starts on, so a live pass is live
   * today and an expired one ended before today (what a demo wants); the same all day, for one seed. A day
   * (`2026-11-26`): that one. On any day a placeholder keeps its id, name and status; only its times move.
   * Generated timestamps, fixtures' missing times and `clock: 'seed'` lead up to the same day.
   * @default 'seed' (the CLI: `today`, unless `--clock seed`)
   */
  asOf?: AsOf;
  /**
   * Faults for resilience tests (latency, failure rate, dropped connections), repeatable under the seed.
   * @default {} (none)
   */
  faults?: Faults;
  /**
   * Initial contents of the store, by collection path: `{ "/members/m1/passes": [ ...records ] }` (or what
   * `GET /__mock/state` answers). Records may leave fields out: the rest is made as a create makes it, from the
   * seed (the id too, `member_id` from the path). Checked against the contract; `reset()` comes back to it.
   * @default {} (every collection starts with placeholders)
   */
  state?: StoreSnapshot;
  /**
   * Called after every request that changed the default session's state; `snapshot()` copies it, so call
   * it only when you need it (copying on every change would cost each create the whole store).
   * @default none
   */
  onStateChange?: (snapshot: () => StoreSnapshot) => void;
  /**
   * Hears a copy of every call recorded, in any session, just after it is recorded (before its answer is
   * written), as the journal keeps it. A listener that throws loses nothing but its own turn.
   * @default none
   */
  onCall?: (call: CallRecord) => void;
  /**
   * The default session's store, taken as it is: what it holds is served, not replaced by `state` (a reset
   * does replace it). `startMock` passes the SQLite store of `stateFile` here.
   * @default a new memory store, holding `state`
   */
  store?: Store | undefined;
  /**
   * CORS: `true` allows every origin, a list allows those origins, `false` sends no CORS headers.
   * @default true
   */
  cors?: boolean | string[];
  /**
   * Protects `/__mock/*` with this bearer token; `false` removes the admin API altogether.
   * @default undefined (open; the CLI reads MOCK_ADMIN_TOKEN)
   */
  admin?: { token?: string } | false;
  /**
   * Host names the mock answers to besides IP addresses, `localhost` and `*.localhost`: a page that reaches
   * the mock through a name of its own (DNS rebinding) is refused with 403. `.example.com` allows the name and
   * its subdomains; the port is ignored; `true` turns the check off. Without an admin token only: a token
   * protects the admin API, and then every host is answered. `startMock` adds the `host` it listens on.
   * @default [] (IP addresses, localhost and *.localhost only)
   */
  allowedHosts?: string[] | true;
  /**
   * One log line per request (method, path, operationId, status, ms, and the fault when one was injected):
   * `pretty` for people, `json` for machines. It also decides how the mock's other news reads (a reload, a
   * broken example, an error): `json` writes them as objects with `level` and `msg`; `off` and `pretty` as text.
   * @default 'off'
   */
  log?: 'off' | 'pretty' | 'json';
  /**
   * A real backend to stand in front of: routed requests go to it (checked both ways against the contract), and
   * the mock answers only what the rules keep for it or when the backend lacks the route, is down or too slow.
   * Overrides, `Prefer` and faults still come first. See {@link ProxyOptions}; a string is `{ url }`.
   * @default none (the mock answers everything)
   */
  proxy?: string | ProxyOptions;
  /**
   * With several APIs (a contract made by `combineContracts`, or `contracts` of startMock): each named API's own
   * backend. Its operations go there, under the URL's path and without the API's mount (`/payments/charges` to
   * `https://payments.test/api/charges`), with its own fallback, timeout, headers and `mockOnly`/`proxyOnly`
   * (the API's own operationIds). An API not named here goes to `proxy` when it is given, else the mock answers it.
   * @default none
   */
  proxies?: Record<string, string | ProxyOptions>;
  /**
   * Where log lines go; `level` is `info` for requests and news, `warn` or `error` for the rest.
   * @default the console (`startMock` and the CLI: `info` to process.stdout in batches, the rest to process.stderr)
   */
  logTo?: LogSink;
}

/**
 * How the state file is synced: `normal` survives the process being killed; `full` survives the machine losing power
 * too.
 */
export type StateSync = 'normal' | 'full';

/** One API of a mock that serves several (`contracts`). */
export interface ContractEntry {
  /**
   * The API's name (letters, digits, `-`, `_`): it names the API in the journal (`contract`), the banner,
   * coverage and the inspector, and qualifies an operationId two APIs share (`payments:createCharge`).
   */
  name: string;
  /**
   * Path or URL of its document, a contract already loaded with `loadContract`, or the document as an object
   * (parsed JSON or YAML, every schema it refers to inside it).
   */
  contract: string | Contract | object;
  /**
   * The path prefix it is served under, such as `/payments`; `/` serves it at its own paths.
   * @default '/'
   */
  mount?: string;
  /**
   * The API's own backend: its operations go there (without the mount), checked both ways, as `proxy` does for
   * the whole mock. A string is `{ url }`. See {@link MockOptions.proxies}.
   * @default the mock's `proxy`, if any
   */
  proxy?: string | ProxyOptions;
}

/** Options of a mock that listens: {@link MockOptions} plus where and what to serve. */
export interface ServerOptions extends MockOptions {
  /**
   * Path or URL of the OpenAPI document to serve, a contract already loaded with `loadContract` (many mocks of
   * one contract then share one parse), or the document as an object (parsed JSON or YAML, every schema it
   * refers to inside it; one that is no OpenAPI document is refused with a ContractError saying so).
   * @default the bundled contracts/membership.openapi.yaml
   */
  contract?: string | Contract | object;
  /**
   * Several APIs in one mock, in place of `contract`: each served under its mount (or at its own paths), with
   * its own plans, data and coverage, and one journal, one set of overrides and faults for all of them.
   * @default one API, `contract`
   */
  contracts?: ContractEntry[];
  /**
   * Milliseconds a connection may take to send its request line and headers; past it (an idle socket, a slow
   * client) it is answered 408 and closed, so idle connections cannot use up the process's sockets.
   * @default 10000
   */
  headersTimeout?: number;
  /**
   * Milliseconds a whole request (its body too) may take to arrive; past it, 408 and the connection closes.
   * An answer may take longer (a long-poll of /__mock/calls/wait, a delayed answer): only the request counts.
   * @default 30000
   */
  requestTimeout?: number;
  /**
   * TCP port; 0 picks a free one.
   * @default 0 for startMock(), 4010 for the CLI
   */
  port?: number;
  /**
   * Interface to listen on.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * A JSON file of fixtures to start from, in the form of {@link MockOptions.state} (partial records too).
   * @default none
   */
  data?: string;
  /**
   * A SQLite database where the default session's state is kept across restarts: every change is committed
   * before it is answered. Created (with `data`) when it does not exist; a JSON state file of earlier versions
   * is imported once. Its budget (`stateBytes`) is {@link FILE_STATE_BYTES} unless one is given.
   * @default none (state is kept in memory)
   */
  stateFile?: string;
  /**
   * How the state file is synced to disk: `normal` keeps every answered change if the process is killed;
   * `full` also if the machine loses power, at the cost of a disk sync per change.
   * @default 'normal'
   */
  stateSync?: StateSync;
  /**
   * Share state, counters, overrides, faults and the journal with the other replicas of this mock through Redis
   * (the CLI's `--store`): `redis://host:port/db`, `?prefix=name:` to keep this mock's keys apart from another's
   * on the same server. Requests that need it answer 503 `store-unavailable` while it does not answer in time.
   * See mock/docs/replicas.md.
   * @default none (this process keeps everything to itself)
   */
  redis?: string;
  /**
   * A HAR file the calls the real backend answered (`proxy`) are written to as they happen, secrets redacted
   * unless `journalSecrets`, bodies whole as the proxy read them (an answer up to 1 MiB, a request up to
   * `bodyLimit`): `importHar` (or `POST /__mock/har`) replays them offline. Truncated at start; it stops growing
   * at what `POST /__mock/har` takes (32 MiB, 10,000 entries).
   * @default none
   */
  record?: string;
  /**
   * Reload the contract when its file changes, keeping state and journal.
   * @default false (the CLI turns it on)
   */
  watch?: boolean;
}

/** The default session's budget when it is kept in a state file: on disk, it need not be held in memory (1 GiB). */
export const FILE_STATE_BYTES = 1024 ** 3;

export type ResolvedMockOptions = Required<Omit<MockOptions, 'store' | 'proxy' | 'proxies' | 'onCall'>> & {
  store?: Store;
  proxy?: ProxyOptions;
  proxies: Record<string, ProxyOptions>;
  onCall?: (call: CallRecord) => void;
};

/**
 * Why a mock's placeholders do not fit its collection limit, in the names they were given by (`--placeholders`
 * on the command line); `undefined` when they fit. A collection holds its placeholders before any create: more
 * than it may hold, and every create would answer 507.
 */
export function placeholdersOverLimit(
  { placeholders, collectionLimit }: { placeholders: number; collectionLimit: number },
  names = { placeholders: 'placeholders', collectionLimit: 'collectionLimit' },
): string | undefined {
  if (placeholders <= collectionLimit) return undefined;
  return (
    `${names.placeholders} (${placeholders}) is more than ${names.collectionLimit} (${collectionLimit}): every ` +
    'collection would start over its limit, and every create answer 507. Give fewer placeholders or a higher limit.'
  );
}

/** Fills in every default of {@link MockOptions}. */
export function resolveMockOptions(options: MockOptions = {}): ResolvedMockOptions {
  if ('stateLimit' in options)
    throw new TypeError(
      'stateLimit is gone: state is bounded by bytes now, and placeholders are free. Give stateBytes instead ' +
        '(default 64 MiB), and collectionLimit for the records of one collection.',
    );
  const {
    seed = 1,
    bodyLimit = 65536,
    dynamic = true,
    checkSecurity = true,
    errors = false,
    journalLimit = 10000,
    journalSecrets = false,
    journalBytes = 67108864,
    journalBodyLimit = 16384,
    sessionLimit = 100,
    collectionLimit = 1000,
    stateBytes = 64 * 1024 * 1024,
    stateless = false,
    placeholders = 3,
    clock = 'system',
    asOf = 'seed',
    faults = {},
    state = {},
    onStateChange = () => undefined,
    store,
    cors = true,
    admin = {},
    allowedHosts = [],
    log = 'off',
    logTo = consoleSink,
    proxy,
    proxies = {},
    onCall,
  } = options;
  return {
    seed,
    bodyLimit,
    dynamic,
    checkSecurity,
    errors,
    journalLimit,
    journalSecrets,
    journalBytes,
    journalBodyLimit,
    sessionLimit,
    collectionLimit,
    stateBytes,
    stateless,
    placeholders,
    clock,
    asOf,
    faults,
    state,
    onStateChange,
    store,
    cors,
    admin,
    allowedHosts,
    log,
    logTo,
    proxy: typeof proxy === 'string' ? { url: proxy } : proxy,
    proxies: Object.fromEntries(
      Object.entries(proxies).map(([api, one]) => [api, typeof one === 'string' ? { url: one } : one]),
    ),
    onCall,
  };
}
