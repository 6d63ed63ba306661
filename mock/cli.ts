#!/usr/bin/env node
// The command line: parse flags, start the mock, print one banner line, stop cleanly on SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nearestFlag } from './nearest-flag.js';
import { hostName } from './handler/host-guard.js';
import { DEFAULT_CONTRACT, type ServerOptions } from './options.js';
import { LATENCY_FORMAT, parseLatency, type Latency } from './respond/faults.js';
import type { RunningMock } from './server.js';
import type { Contract } from './contract/load-contract.js';
import { serverPaths } from './plan/server-paths.js';

const HELP = `Usage: membership-mock [options]
       membership-mock verify --base-url URL [options]   (check a real server; see verify --help)

Serves a mock of an OpenAPI contract: routes, validation and bodies come from the contract.

Options:
  --contract FILE        OpenAPI 3.x or Swagger 2.0 file (YAML or JSON), Postman collection (v2), or URL
                         to serve, with the files and URLs its $refs name (default: the bundled
                         contracts/membership.openapi.yaml)
  --port N               TCP port (default: $PORT, else 4010; 0 picks a free port)
  --host ADDR            interface to listen on (default: 127.0.0.1)
  --seed S               seed for generated bodies and placeholders; the same seed gives the same data (default: 1)
  --static               serve the contract's examples first instead of generated bodies
  --stateless            keep no state: every answer generated, as Prism does
  --placeholders N       records a member's collection starts with (default: 3)
  --clock seed|system    time of created records: the wall clock (default), or minutes from the seed's
                         anchor so a whole session repeats byte for byte
  --data FILE            start from fixtures: { "/members/m1/passes": [ ...records ] }; fields left out
                         are made from the seed (ids too)
  --state-file FILE      keep the default session's state in the SQLite database FILE across restarts:
                         every change is committed before it is answered; a new FILE starts from --data;
                         a JSON state file of earlier versions is imported once (kept as FILE.imported.json)
  --state-sync MODE      normal (default): answered changes survive the mock being killed; full: they
                         survive the machine losing power too (a disk sync per change)
  --cors-origin LIST     allow only these origins, comma-separated (default: any origin; the admin API
                         answers only these, and takes changes only from them or its own origin)
  --allowed-hosts LIST   host names answered besides IP addresses, localhost, *.localhost and --host,
                         comma-separated; .example.com allows its subdomains too; all answers any host
  --no-cors              send no CORS headers
  --no-watch             do not reload the contract when its file changes
  --log FORMAT           pretty (default), json, or off: one line per request
  --body-limit BYTES     largest request body accepted, larger answers 413 (default: 65536)
  --journal-limit N      calls kept in the journal, oldest dropped first (default: 10000)
  --journal-secrets      record credentials as sent (default: Authorization, cookies and API keys are
                         recorded as their scheme and a sha256 fingerprint)
  --journal-bytes N      bytes the journals of all sessions hold together, oldest call dropped first
                         (default: 67108864, 64 MiB)
  --journal-body-limit N longest body text kept whole in the journal; longer ones keep their start and are
                         marked truncated (default: 16384)
  --session-limit N      named sessions (X-Mock-Session) kept, least recently used dropped (default: 100)
  --collection-limit N   records one collection may hold; a create past it answers 507 (default: 1000)
  --state-limit N        records one session may hold across its collections; a create or delete needing
                         room past it answers 507, once untouched placeholders are dropped (default: 1500;
                         1000000 for the default session with --state-file)
  --no-security-check    do not require the contract's credentials (no 401)
  --errors               check every body (examples and generated ones) against its schema and answer one
                         that breaks it with a 500 problem listing the violations, as Prism does (default:
                         an example that breaks it is sent with an sl-violations header, and logged once)
  --latency MS|MIN-MAX   add latency to every answer, fixed or a random range (repeatable under --seed)
  --failure-rate R       share (0-1) of answers replaced by the operation's documented 5xx
  --drop-rate R          share (0-1) of connections closed without an answer
  --admin-token T        protect /__mock/* with Authorization: Bearer T (or set MOCK_ADMIN_TOKEN);
                         with a token, every host name is answered
  --no-admin             remove the admin API /__mock/* altogether
  -h, --help             show this help
  -v, --version          show the version

Admin API: GET /__mock/health, GET|DELETE /__mock/calls, GET|PUT /__mock/state, POST /__mock/reset,
           GET|POST /__mock/state/members/m1/passes, GET|PUT|PATCH|DELETE /__mock/state/members/m1/passes/ID
           (changes need Content-Type: application/json or an X-Mock-Session header)
Per request: Prefer: code=404 | example=NAME | dynamic=true|false`;

/** Thrown for a bad flag: the message is for the person at the terminal. */
class UsageError extends Error {}

/** parseArgs, strict, whose unknown flag names the nearest known one. */
function parseFlags<T extends ParseArgsConfig['options'] & object>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw error;
    const typed = /'([^']+)'/.exec(message)?.[1] ?? '';
    const near = nearestFlag(typed, Object.keys(options));
    throw new UsageError(`Unknown option '${typed}'.${near ? ` Did you mean ${near}?` : ''}`);
  }
}

function readOptions(argv: string[]): ServerOptions & { help?: boolean; version?: boolean } {
  const { values } = parseFlags(argv, {
    contract: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    static: { type: 'boolean' },
    'body-limit': { type: 'string' },
    'journal-limit': { type: 'string' },
    'journal-bytes': { type: 'string' },
    'journal-body-limit': { type: 'string' },
    'session-limit': { type: 'string' },
    'journal-secrets': { type: 'boolean' },
    'collection-limit': { type: 'string' },
    'state-limit': { type: 'string' },
    'no-security-check': { type: 'boolean' },
    errors: { type: 'boolean' },
    stateless: { type: 'boolean' },
    placeholders: { type: 'string' },
    clock: { type: 'string' },
    data: { type: 'string' },
    'state-file': { type: 'string' },
    'state-sync': { type: 'string' },
    'cors-origin': { type: 'string' },
    'allowed-hosts': { type: 'string' },
    'no-cors': { type: 'boolean' },
    'no-watch': { type: 'boolean' },
    log: { type: 'string' },
    'admin-token': { type: 'string' },
    latency: { type: 'string' },
    'failure-rate': { type: 'string' },
    'drop-rate': { type: 'string' },
    'no-admin': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  });
  const port = values.port ?? (process.env.PORT || '4010');
  const seed = values.seed;
  return {
    help: values.help,
    version: values.version,
    contract: values.contract === undefined ? DEFAULT_CONTRACT : fromCaller(values.contract),
    port: integer('--port (or PORT)', port, 0, 65535),
    host: values.host ?? '127.0.0.1',
    seed: seed === undefined ? 1 : /^-?\d+$/.test(seed) ? Number(seed) : seed,
    dynamic: !values.static,
    bodyLimit:
      values['body-limit'] === undefined ? undefined : integer('--body-limit', values['body-limit'], 1, 1024 ** 3),
    journalLimit:
      values['journal-limit'] === undefined
        ? undefined
        : integer('--journal-limit', values['journal-limit'], 1, 10_000_000),
    journalBytes:
      values['journal-bytes'] === undefined
        ? undefined
        : integer('--journal-bytes', values['journal-bytes'], 1024, 1024 ** 4),
    journalBodyLimit:
      values['journal-body-limit'] === undefined
        ? undefined
        : integer('--journal-body-limit', values['journal-body-limit'], 0, 1024 ** 3),
    sessionLimit:
      values['session-limit'] === undefined
        ? undefined
        : integer('--session-limit', values['session-limit'], 1, 100_000),
    journalSecrets: values['journal-secrets'] ?? false,
    collectionLimit:
      values['collection-limit'] === undefined
        ? undefined
        : integer('--collection-limit', values['collection-limit'], 1, 10_000_000),
    stateLimit:
      values['state-limit'] === undefined ? undefined : integer('--state-limit', values['state-limit'], 1, 100_000_000),
    checkSecurity: !values['no-security-check'],
    errors: values.errors,
    stateless: values.stateless ?? false,
    clock: clockKind(values.clock ?? 'system'),
    placeholders:
      values.placeholders === undefined ? undefined : integer('--placeholders', values.placeholders, 0, 1000),
    data: values.data && fromCaller(values.data),
    stateFile: values['state-file'] && fromCaller(values['state-file']),
    stateSync: stateSync(values['state-sync'] ?? 'normal'),
    cors: values['no-cors']
      ? false
      : values['cors-origin'] === undefined
        ? true
        : values['cors-origin']
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean),
    allowedHosts: values['allowed-hosts'] === undefined ? undefined : allowedHosts(values['allowed-hosts']),
    watch: !values['no-watch'],
    log: logFormat(values.log ?? 'pretty'),
    admin: values['no-admin'] ? false : { token: adminToken(values['admin-token']) },
    faults: {
      latency: values.latency === undefined ? undefined : latencyOf(values.latency),
      failureRate: values['failure-rate'] === undefined ? undefined : share('--failure-rate', values['failure-rate']),
      dropRate: values['drop-rate'] === undefined ? undefined : share('--drop-rate', values['drop-rate']),
    },
  };
}

function adminToken(flag: string | undefined): string | undefined {
  if (flag === '')
    throw new UsageError('--admin-token is empty: give a token (an unset shell variable?), or leave the flag out.');
  const env = process.env.MOCK_ADMIN_TOKEN;
  if (flag === undefined && env === '')
    throw new UsageError(
      'MOCK_ADMIN_TOKEN is set but empty: give it a token, or unset it to leave the admin API open.',
    );
  return flag ?? env;
}

function allowedHosts(list: string): string[] | true {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 1 && entries[0]!.toLowerCase() === 'all') return true;
  const wrong = entries.find((entry) => hostName(entry.startsWith('.') ? entry.slice(1) : entry) === undefined);
  if (wrong !== undefined || entries.length === 0)
    throw new UsageError(
      `--allowed-hosts must be host names, comma-separated (.example.com for its subdomains too), or all; ` +
        `not "${wrong ?? list}".`,
    );
  return entries;
}

/**
 * One line for stderr when the admin API is open to the network: no token, and an interface beyond loopback.
 * @example exposureWarning({ host: '0.0.0.0', admin: {} }, 4010) // 'membership-mock: warning: ...'
 */
function exposureWarning({ host = '127.0.0.1', admin }: ServerOptions, port: number): string | undefined {
  if (admin === false || admin?.token || isLoopback(host)) return undefined;
  return (
    `membership-mock: warning: listening on ${host} without an admin token: anyone who can reach port ${port} ` +
    'can read the journal (with its Authorization and Cookie headers) and reset the state; ' +
    'set one with --admin-token or MOCK_ADMIN_TOKEN.'
  );
}

function isLoopback(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || (isIPv4(name) && name.startsWith('127.'));
}

function latencyOf(text: string): Latency {
  const latency = parseLatency(text);
  if (latency === undefined) throw new UsageError(`--latency must be ${LATENCY_FORMAT}, not "${text}".`);
  return latency;
}

function share(flag: string, text: string): number {
  const value = Number(text);
  if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(text))
    throw new UsageError(`${flag} must be a share from 0 to 1, such as 0.1, not "${text}".`);
  return value;
}

function adminNote(admin: ServerOptions['admin'], url: string): string {
  if (admin === false) return 'no admin API';
  return `admin at ${url}/__mock${admin?.token ? ', token required' : ''}`;
}

function clockKind(value: string): 'system' | 'seed' {
  if (value === 'system' || value === 'seed') return value;
  throw new UsageError(`--clock must be system or seed, not "${value}".`);
}

function stateSync(value: string): 'normal' | 'full' {
  if (value === 'normal' || value === 'full') return value;
  throw new UsageError(`--state-sync must be normal or full, not "${value}".`);
}

function logFormat(value: string): 'pretty' | 'json' | 'off' {
  if (value === 'pretty' || value === 'json' || value === 'off') return value;
  throw new UsageError(`--log must be pretty, json or off, not "${value}".`);
}

/** `npm start -- --data x.json` runs in the package folder; paths are taken from where npm was called. */
function fromCaller(path: string): string {
  return /^https?:/i.test(path) ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

function integer(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${text}".`);
  return value;
}

function stackOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

// A rejection nobody handled is a bug in the mock: log it and keep serving, rather than lose every call.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`membership-mock: unhandled failure (please report it): ${stackOf(reason)}\n`);
});

async function main(): Promise<void> {
  if (process.argv[2] === 'verify') {
    const { runVerify } = await import('./verify/verify-command.js');
    process.exitCode = await runVerify(
      process.argv.slice(3),
      (t) => process.stdout.write(t),
      (t) => process.stderr.write(t),
    );
    return;
  }
  let options: ReturnType<typeof readOptions>;
  try {
    options = readOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`membership-mock: ${(error as Error).message}\nRun with --help for the options.\n`);
    process.exit(2);
  }
  if (options.help) return void process.stdout.write(`${HELP}\n`);
  if (options.version) return void process.stdout.write(`${version()}\n`);

  // Loaded only now, so that --help and flag errors answer at once.
  const [{ startMock }, { ContractError }, { StateError }, { reportBrokenExamples }] = await Promise.all([
    import('./server.js'),
    import('./contract/load-contract.js'),
    import('./state/check-snapshot.js'),
    import('./problems/report-examples.js'),
  ]);
  let running: RunningMock;
  try {
    running = await startMock(options);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const message =
      e instanceof ContractError || e instanceof StateError
        ? e.message
        : e.code === 'EADDRINUSE'
          ? `port ${options.port} on ${options.host} is in use; choose another with --port.`
          : e.code === 'EADDRNOTAVAIL'
            ? `cannot listen on ${options.host}: no such local address.`
            : e.message;
    process.stderr.write(`membership-mock: ${message}\n`);
    process.exit(1);
  }
  const { contract: served } = running.mock;
  process.stdout.write(
    `membership-mock: serving ${served.operations.length} operations of "${served.title}" ${served.version} ` +
      `at ${running.url}${underServers(served)} (seed ${options.seed}; ${adminNote(options.admin, running.url)})\n`,
  );
  if (served.operations.length === 0) {
    process.stderr.write(
      'membership-mock: the contract has no operation under "paths" (webhooks are calls the API makes, ' +
        'not ones it answers): every request answers 404.\n',
    );
  }
  const warning = exposureWarning(options, running.port);
  if (warning) process.stderr.write(`${warning}\n`);
  // After listening: the first answers never wait for it.
  void reportBrokenExamples(
    served.operations,
    (line) => process.stderr.write(`${line}\n`),
    {},
    (line) => process.stdout.write(`${line}\n`),
  );

  let stopping = false;
  const stop = (signal: string) => {
    // A second signal means: now.
    if (stopping) return process.exit(1);
    stopping = true;
    process.stdout.write(`membership-mock: ${signal} received, stopping (again to force)\n`);
    // Requests in flight get 5 s to finish, then their connections are closed; the hard stop is a safety net.
    setTimeout(() => process.exit(1), 15_000).unref();
    running.close({ grace: 5000 }).then(
      ({ cutOff }) => {
        if (cutOff > 0)
          process.stdout.write(
            `membership-mock: cut off ${cutOff} connection${cutOff === 1 ? '' : 's'} still open after 5 s ` +
              '(slow clients, long-polls or delayed answers)\n',
          );
        process.exit(0);
      },
      (error: Error) => {
        process.stderr.write(`membership-mock: ${error.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();

/** Where else the operations are served: under the path of each of the contract's servers (`/v1`). */
function underServers(contract: Contract): string {
  const paths = [...new Set(contract.operations.flatMap((op) => serverPaths(op.spec.servers)))];
  return paths.length ? ` and under ${paths.join(', ')}` : '';
}
