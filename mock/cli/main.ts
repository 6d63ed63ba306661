// The command line: flags over the config file, start the mock, print one banner line, stop cleanly on SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import bytes from 'bytes';
import { isIPv4 } from 'node:net';
import { basename, resolve } from 'node:path';
import { HEADER_NAME } from '../http/reply.js';
import { createLogger, type LogFormat } from '../instance/logger.js';
import { MAX_SESSIONS } from '../instance/mock-context.js';
import { FLAGS, HELP } from './cli-flags.js';
import { parseFlags, UsageError } from './parse-flags.js';
import { applyConfig, RENAMED_KEYS, type FlagName, type FlagValues } from './apply-config.js';
import { loadConfig } from './config-file.js';
import type { ProxyOptions } from '../respond/proxy-rules.js';
import { hostName } from '../handler/guards/host-guard.js';
import { placeholdersOverLimit, resolveMockOptions, type ServerOptions } from '../instance/options.js';
import { readDay, type AsOf } from '../instance/dated-generators.js';
import { DEFAULT_CONTRACT } from '../node/default-contract.js';
import { processSink } from '../node/process-sink.js';
import { LATENCY_FORMAT, parseLatency, type Latency } from '../respond/faults.js';
import type { RunningMock } from '../server.js';
import type { Contract } from '../contract/contract.js';
import type { CombinedContract } from '../contract/combine-contracts.js';
import { serverPaths } from '../contract/server-paths.js';
import { watchParent } from '../node/watch-parent.js';

/** The flags that take a whole number. */
type NumericFlag =
  | 'body-limit'
  | 'journal-limit'
  | 'journal-bytes'
  | 'journal-body-limit'
  | 'session-limit'
  | 'collection-limit'
  | 'placeholders';

/** What the command line asks for: the mock's options, the config file read, or only the help or the version. */
type CliOptions = ServerOptions & { help?: boolean; version?: boolean; config?: string };

function readOptions(argv: string[]): CliOptions {
  if (argv.some((arg) => arg === '--state-limit' || arg.startsWith('--state-limit=')))
    throw new UsageError(
      '--state-limit is gone: state is bounded by bytes now, and placeholders are free. Give --state-bytes ' +
        '(such as 64MB, the default), and --collection-limit for the records of one collection.',
    );
  const { values: given } = parseFlags(argv, FLAGS);
  if (given.help || given.version) return { help: given.help, version: given.version };
  const file = loadConfig(given.config && fromCaller(given.config), callerDir(), RENAMED_KEYS);
  const {
    values: merged,
    contracts,
    nameOf,
  } = file
    ? applyConfig(given, file)
    : { values: given, contracts: undefined, nameOf: (flag: FlagName) => `--${flag}` };
  const values = settleStateless(given, merged, nameOf);
  /** A whole number between min and max from a numeric flag, when it was given. */
  const wholeOf = (flag: NumericFlag, min: number, max: number) => {
    const text = values[flag];
    return text === undefined ? undefined : integer(nameOf(flag), text, min, max);
  };
  const port = values.port ?? (process.env.PORT || '4010');
  const seed = values.seed;
  const collectionLimit = wholeOf('collection-limit', 1, 10_000_000);
  const placeholders = wholeOf('placeholders', 0, 1000);
  const room = resolveMockOptions({ placeholders, collectionLimit });
  const crowded = placeholdersOverLimit(room, {
    placeholders: nameOf('placeholders'),
    collectionLimit: nameOf('collection-limit'),
  });
  if (crowded) throw new UsageError(crowded);
  return {
    config: file?.name,
    // --contract given (or the file's contract) is one API or several, as contractsOf reads it; else the file's.
    ...(values.contract === undefined && contracts ? { contracts } : contractsOf(values.contract ?? [])),
    port: integer(nameOf('port') === '--port' ? '--port (or PORT)' : nameOf('port'), port, 0, 65535),
    host: values.host ?? '127.0.0.1',
    seed: seed === undefined ? 1 : /^-?\d+$/.test(seed) ? Number(seed) : seed,
    dynamic: !values.static,
    bodyLimit: wholeOf('body-limit', 1, 1024 ** 3),
    journalLimit: wholeOf('journal-limit', 1, 10_000_000),
    journalBytes: wholeOf('journal-bytes', 1024, 1024 ** 4),
    journalBodyLimit: wholeOf('journal-body-limit', 0, 1024 ** 3),
    sessionLimit: wholeOf('session-limit', 1, MAX_SESSIONS),
    journalSecrets: values['journal-secrets'] ?? false,
    collectionLimit,
    stateBytes: values['state-bytes'] === undefined ? undefined : size(nameOf('state-bytes'), values['state-bytes']),
    checkSecurity: !values['no-security-check'],
    errors: values.errors,
    stateless: values.stateless ?? false,
    clock: clockKind(values.clock ?? 'system'),
    // A demo reads as of today; a session asked to repeat byte for byte (--clock seed) reads as of the seed's day.
    asOf: asOfOf(nameOf('as-of'), values['as-of'] ?? (values.clock === 'seed' ? 'seed' : 'today')),
    placeholders,
    data: values.data && fromCaller(values.data),
    stateFile: values['state-file'] && fromCaller(values['state-file']),
    stateSync: stateSync(values['state-sync'] ?? 'normal'),
    redis: values.store,
    cors: values['no-cors']
      ? false
      : values['cors-origin'] === undefined
        ? true
        : values['cors-origin']
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean),
    allowedHosts:
      values['allowed-hosts'] === undefined
        ? undefined
        : allowedHosts(nameOf('allowed-hosts'), values['allowed-hosts']),
    watch: !values['no-watch'],
    log: logFormat(values.log ?? 'pretty'),
    admin: values['no-admin'] ? false : { token: adminToken(values['admin-token']) },
    proxy: proxyOf(values, nameOf),
    record: values.record && fromCaller(values.record),
    faults: {
      latency: values.latency === undefined ? undefined : latencyOf(nameOf('latency'), values.latency),
      failureRate:
        values['failure-rate'] === undefined ? undefined : share(nameOf('failure-rate'), values['failure-rate']),
      dropRate: values['drop-rate'] === undefined ? undefined : share(nameOf('drop-rate'), values['drop-rate']),
    },
  };
}

/**
 * `--contract`, repeatable. One FILE is the one API as ever; `NAME=FILE` serves an API under `/NAME`, and FILE
 * alone at its own paths, named after the file: a mount is the one thing two APIs whose paths collide need,
 * and the name a person types is the prefix they will see in their URLs.
 */
function contractsOf(given: string[]): Pick<ServerOptions, 'contract' | 'contracts'> {
  if (given.length === 0) return { contract: DEFAULT_CONTRACT };
  const entries = given.map((text) => {
    const named = /^([A-Za-z0-9][A-Za-z0-9_-]*)=(.+)$/.exec(text);
    if (named && !/^https?:$/i.test(`${named[1]}:`)) {
      return { name: named[1]!, contract: fromCaller(named[2]!), mount: `/${named[1]!}` };
    }
    const name = basename(text.replace(/[?#].*$/, ''))
      .replace(/\.(openapi|swagger)?\.?(ya?ml|json)$/i, '')
      .replace(/\.(openapi|swagger)$/i, '');
    return { name: name.replace(/[^A-Za-z0-9_-]/g, '-') || 'api', contract: fromCaller(text), mount: '/' };
  });
  if (entries.length === 1 && entries[0]!.mount === '/') return { contract: entries[0]!.contract };
  return { contracts: entries };
}

/**
 * `--stateless` beside a setting that gives or keeps state (`--data`, `--state-file`, `--record-state`): given
 * in one place (both flags, or both keys of the config file) it is refused, since one of them would do nothing
 * without a word; given one on the command line and one in the file, the command line wins, as it does for every
 * key (a one-off `--stateless` run of a project whose file names its fixtures).
 */
function settleStateless(given: FlagValues, values: FlagValues, nameOf: (flag: FlagName) => string): FlagValues {
  if (!values.stateless) return values;
  const settled = { ...values };
  for (const name of ['data', 'state-file', 'record-state'] as const) {
    if (!settled.stateless) break;
    if (values[name] === undefined || values[name] === false) continue;
    const statelessFlag = given.stateless !== undefined;
    const otherFlag = given[name] !== undefined;
    if (statelessFlag === otherFlag)
      throw new UsageError(
        `${nameOf('stateless')} keeps no state, so ${nameOf(name)} would do nothing: leave one of them out.`,
      );
    if (statelessFlag) delete settled[name];
    else settled.stateless = false;
  }
  return settled;
}

/** The `--proxy*` flags as the `proxy` option; they mean nothing without `--proxy`. */
function proxyOf(values: FlagValues, nameOf: (flag: FlagName) => string): ProxyOptions | undefined {
  const url = values.proxy;
  const others = [
    'proxy-fallback',
    'proxy-timeout',
    'proxy-header',
    'mock-only',
    'proxy-only',
    'no-proxy-passthrough',
    'record',
    'record-state',
  ] as const;
  if (url === undefined) {
    // An opposite given (`--proxy-passthrough`, `--no-record-state`: `false`) asks for nothing without a proxy.
    const given = others.find((name) => values[name] !== undefined && values[name] !== false);
    if (given) throw new UsageError(`--${given} needs --proxy URL: there is no backend to send requests to.`);
    return undefined;
  }
  const fallback = values['proxy-fallback'] ?? 'auto';
  const list = (text: string | undefined) =>
    text
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return {
    url,
    fallback:
      fallback === 'auto' || fallback === 'off'
        ? fallback
        : (list(fallback) ?? []).map((status) => {
            if (!/^[45]\d\d$/.test(status))
              throw new UsageError(
                `${nameOf('proxy-fallback')} must be auto, off or statuses of the backend's failures (400 to 599) such as 404,501, not "${fallback}".`,
              );
            return Number(status);
          }),
    timeout:
      values['proxy-timeout'] === undefined
        ? undefined
        : integer(nameOf('proxy-timeout'), values['proxy-timeout'], 1, 600_000),
    headers: proxyHeaders(nameOf('proxy-header'), values['proxy-header'] ?? []),
    mockOnly: list(values['mock-only']),
    proxyOnly: list(values['proxy-only']),
    passthrough: !values['no-proxy-passthrough'],
    recordState: values['record-state'] ?? false,
  };
}

/** `--proxy-header 'Authorization: Bearer t'`, repeatable, as a record of headers. */
function proxyHeaders(flag: string, given: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const text of given) {
    const at = text.indexOf(':');
    const name = at > 0 ? text.slice(0, at).trim() : '';
    if (!HEADER_NAME.test(name))
      throw new UsageError(`${flag} must be "Name: value", such as "Authorization: Bearer t", not "${text}".`);
    headers[name] = text.slice(at + 1).trim();
  }
  return headers;
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

function allowedHosts(flag: string, list: string): string[] | true {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 1 && entries[0]!.toLowerCase() === 'all') return true;
  const wrong = entries.find((entry) => hostName(entry.startsWith('.') ? entry.slice(1) : entry) === undefined);
  if (wrong !== undefined || entries.length === 0)
    throw new UsageError(
      `${flag} must be host names, comma-separated (.example.com for its subdomains too), or all; ` +
        `not "${wrong ?? list}".`,
    );
  return entries;
}

/**
 * A warning when the admin API is open to the network: no token, and an interface beyond loopback.
 * @example exposureWarning({ host: '0.0.0.0', admin: {} }, 4010) // 'listening on 0.0.0.0 without an admin token: ...'
 */
function exposureWarning({ host = '127.0.0.1', admin }: ServerOptions, port: number): string | undefined {
  if (admin === false || admin?.token || isLoopback(host)) return undefined;
  return (
    `listening on ${host} without an admin token: anyone who can reach port ${port} ` +
    'can read the journal (with its Authorization and Cookie headers) and reset the state; ' +
    'set one with --admin-token or MOCK_ADMIN_TOKEN.'
  );
}

function isLoopback(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || (isIPv4(name) && name.startsWith('127.'));
}

function latencyOf(flag: string, text: string): Latency {
  const latency = parseLatency(text);
  if (latency === undefined) throw new UsageError(`${flag} must be ${LATENCY_FORMAT}, not "${text}".`);
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

function asOfOf(flag: string, value: string): AsOf {
  if (value === 'today' || value === 'seed' || readDay(value)) return value as AsOf;
  throw new UsageError(`${flag} must be today, seed or a day such as 2026-11-26, not "${value}".`);
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
  return /^https?:/i.test(path) ? path : resolve(callerDir(), path);
}

/** The folder the command was run in (npm's, for `npm start`): where the config file is looked for. */
function callerDir(): string {
  return process.env.INIT_CWD ?? process.cwd();
}

/** A size in bytes, as a number or with a unit (`64MB`, `1.5GB`: units of 1024), from 1 KB to 1 TB. */
function size(flag: string, text: string): number {
  const value = /^\d+(\.\d+)?\s*(b|kb|mb|gb|tb)?$/i.test(text.trim()) ? bytes.parse(text) : null;
  if (value === null || value < 1024 || value > 1024 ** 4)
    throw new UsageError(`${flag} must be a size from 1KB to 1TB, such as 67108864 or 64MB, not "${text}".`);
  return Math.floor(value);
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
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The log format asked for, read before the flags are checked, so that even a usage error is written in it. */
function askedFormat(argv: string[]): LogFormat {
  const at = argv.lastIndexOf('--log');
  const value = at >= 0 ? argv[at + 1] : argv.findLast((arg) => arg.startsWith('--log='))?.slice(6);
  return value === 'json' || value === 'off' ? value : 'pretty';
}

let logger = createLogger(askedFormat(process.argv.slice(2)), processSink());

// A rejection nobody handled is a bug in the mock: log it and keep serving, rather than lose every call.
process.on('unhandledRejection', (reason) => {
  logger.error(`unhandled failure (please report it): ${stackOf(reason)}`, { event: 'bug' });
});

async function main(): Promise<void> {
  if (process.argv[2] === 'verify') return verify(process.argv.slice(3));
  let options: ReturnType<typeof readOptions>;
  try {
    options = readOptions(process.argv.slice(2));
  } catch (error) {
    logger.error(`${(error as Error).message}\nRun with --help for the options.`, { event: 'usage' });
    process.exit(2);
  }
  if (options.help) return void process.stdout.write(`${HELP}\n`);
  if (options.version) return void process.stdout.write(`${version()}\n`);
  logger = createLogger(options.log ?? 'pretty', processSink());
  const running = await start(options);
  announce(options, running);
  const stop = stopper(running);
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Started by an npm script (npm start, npx): the script's shell may die of a signal without passing it on.
  if (process.env.npm_lifecycle_event !== undefined)
    watchParent(() => stop(undefined, 'the npm process that started the mock is gone (signalled?), stopping'));
}

/** `membership-mock verify …`: checks a real server, and exits with what it found. */
async function verify(args: string[]): Promise<void> {
  const { runVerify } = await import('../verify/verify-command.js');
  process.exitCode = await runVerify(
    args,
    (text) => process.stdout.write(text),
    (text) => process.stderr.write(text),
  );
}

/** Starts the mock, or exits 1 saying why it cannot (a contract, fixtures, a port). */
async function start(options: ServerOptions): Promise<RunningMock> {
  // Loaded only now, so that --help and flag errors answer at once.
  const [{ startMock }, { ContractError }, { StateError }] = await Promise.all([
    import('../server.js'),
    import('../node/load-contract.js'),
    import('../state/check-snapshot.js'),
  ]);
  try {
    return await startMock(options);
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
    logger.error(message, { event: 'start', ...(e.code ? { code: e.code } : {}) });
    process.exit(1);
  }
}

/** The banner, and the warnings a person starting the mock should read; then the examples checked, after listening. */
function announce(options: CliOptions, running: RunningMock): void {
  const { contract: served } = running.mock;
  const count = served.operations.length;
  const notes = [`seed ${options.seed}`];
  // Named, so that a person sees which file keeps the records.
  if (options.stateFile) notes.push(`state file ${options.stateFile}`);
  notes.push(adminNote(options.admin, running.url));
  // Settings that come from no flag typed would otherwise surprise.
  if (options.config !== undefined) notes.push(`settings from ${options.config}`);
  logger.info(
    `serving ${count} operation${count === 1 ? '' : 's'} of "${served.title}" ${served.version} ` +
      `at ${running.url}${underServers(served)} (${notes.join('; ')})`,
    {
      event: 'start',
      pid: process.pid,
      url: running.url,
      operations: served.operations.length,
      title: served.title,
      version: served.version,
      seed: options.seed,
      stateFile: options.stateFile ?? null,
      admin: options.admin === false ? null : `${running.url}/__mock`,
      ...(options.config === undefined ? {} : { config: options.config }),
    },
  );
  if (served.operations.length === 0) {
    logger.warn(
      'the contract has no operation under "paths" (webhooks are calls the API makes, ' +
        'not ones it answers): every request answers 404.',
      { event: 'start' },
    );
  }
  // Several APIs: a line each, with where its operations are served.
  for (const api of (served as Partial<CombinedContract>).apis ?? []) {
    const where = api.mount === '/' ? `at its own paths${underServers(api.contract)}` : `under ${api.mount}`;
    const own = options.contracts?.find((entry) => entry.name === api.name)?.proxy;
    const backend = typeof own === 'string' ? own : own?.url;
    logger.info(
      `  ${api.name}: ${api.contract.operations.length} operations of "${api.contract.title}" ${api.contract.version} ${where}` +
        (backend ? `, its backend ${backend}` : ''),
      {
        event: 'start',
        api: api.name,
        operations: api.contract.operations.length,
        mount: api.mount,
        ...(backend ? { proxy: backend } : {}),
      },
    );
  }
  const proxy = typeof options.proxy === 'string' ? { url: options.proxy } : options.proxy;
  if (proxy) {
    const only = proxy.proxyOnly?.length ? `; only ${proxy.proxyOnly.join(', ')}` : '';
    const except = proxy.mockOnly?.length ? `; the mock answers ${proxy.mockOnly.join(', ')}` : '';
    const fallback = Array.isArray(proxy.fallback) ? proxy.fallback.join(',') : (proxy.fallback ?? 'auto');
    logger.info(`proxying to ${proxy.url} (fallback ${fallback}${only}${except})`, {
      event: 'start',
      proxy: proxy.url,
    });
  }
  const warning = exposureWarning(options, running.port);
  if (warning) logger.warn(warning, { event: 'start', host: options.host });
  // After listening: the first answers never wait for it.
  void import('../respond/report-examples.js').then(({ reportBrokenExamples }) =>
    reportBrokenExamples(
      served.operations,
      (msg, fields) => logger.warn(msg, { event: 'example', ...fields }),
      {},
      (msg) => logger.info(msg, { event: 'example' }),
    ),
  );
}

/**
 * How the mock stops: requests in flight get 5 s to finish, then their connections are closed (a hard stop after
 * 15 s is a safety net); a second signal stops at once.
 */
function stopper(running: RunningMock): (signal: NodeJS.Signals | undefined, why?: string) => void {
  let stopping = false;
  return (signal, why = `${signal} received, stopping (again to force)`) => {
    if (stopping) return process.exit(1);
    stopping = true;
    logger.info(why, { event: 'stop', ...(signal ? { signal } : {}) });
    setTimeout(() => process.exit(1), 15_000).unref();
    running.close({ grace: 5000 }).then(
      ({ cutOff }) => {
        if (cutOff > 0)
          logger.warn(
            `cut off ${cutOff} connection${cutOff === 1 ? '' : 's'} still open after 5 s ` +
              '(slow clients, long-polls or delayed answers)',
            { event: 'stop', cutOff },
          );
        process.exit(0);
      },
      (error: Error) => {
        logger.error(error.message, { event: 'stop' });
        process.exit(1);
      },
    );
  };
}

void main();

/** Where else the operations are served: under the path of each of the contract's servers (`/v1`). */
function underServers(contract: Contract): string {
  const paths = [...new Set(contract.operations.flatMap((op) => serverPaths(op.spec.servers)))];
  return paths.length ? ` and under ${paths.join(', ')}` : '';
}
