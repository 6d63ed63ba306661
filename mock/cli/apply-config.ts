// The config file under the flags given: the file is the flags a team commits, so each key becomes the flag it
// stands for and goes through that flag's checks, and a flag given beats the key (and the keys it goes with).
import { resolve } from 'node:path';
import type { ContractEntry } from '../instance/options.js';
import type { FLAGS } from './cli-flags.js';
import type { ConfigFile, EnvSecret, MockConfig, ProxyConfig } from './config-file.js';
import type { ProxyOptions } from '../respond/proxy-rules.js';
import { UsageError, type ParsedFlags } from './parse-flags.js';

export type FlagName = keyof typeof FLAGS;
export type FlagValues = ParsedFlags<typeof FLAGS>['values'];

/**
 * The key of the file each flag stands for (`static` → `dynamic`: the keys are `startMock`'s options). Typed to
 * hold every flag, so a new flag does not compile without its key; the schema holds every key
 * (test/unit/config-file.test.ts).
 */
export const KEY_OF_FLAG: Readonly<Record<Exclude<FlagName, 'config' | 'help' | 'version'>, string>> = {
  contract: 'contract',
  port: 'port',
  host: 'host',
  seed: 'seed',
  static: 'dynamic',
  stateless: 'stateless',
  placeholders: 'placeholders',
  clock: 'clock',
  'as-of': 'asOf',
  data: 'data',
  'state-file': 'stateFile',
  'state-sync': 'stateSync',
  store: 'store',
  'cors-origin': 'cors',
  'no-cors': 'cors',
  'allowed-hosts': 'allowedHosts',
  'no-watch': 'watch',
  log: 'log',
  'body-limit': 'bodyLimit',
  'journal-limit': 'journalLimit',
  'journal-bytes': 'journalBytes',
  'journal-body-limit': 'journalBodyLimit',
  'journal-secrets': 'journalSecrets',
  'session-limit': 'sessionLimit',
  'collection-limit': 'collectionLimit',
  'state-bytes': 'stateBytes',
  'no-security-check': 'checkSecurity',
  errors: 'errors',
  latency: 'faults.latency',
  'failure-rate': 'faults.failureRate',
  'drop-rate': 'faults.dropRate',
  'admin-token': 'admin.token',
  'no-admin': 'admin',
  proxy: 'proxy.url',
  'proxy-fallback': 'proxy.fallback',
  'proxy-timeout': 'proxy.timeout',
  'proxy-header': 'proxy.headers',
  'mock-only': 'proxy.mockOnly',
  'proxy-only': 'proxy.proxyOnly',
  'no-proxy-passthrough': 'proxy.passthrough',
  record: 'record',
  'record-state': 'proxy.recordState',
};

/**
 * The top-level keys a person may write for another: a flag's name, or its camelCase (`static`, `noCors`,
 * `adminToken`, `latency`), for the key that holds it (`dynamic`, `cors`, `admin.token`, `faults.latency`).
 */
export const RENAMED_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(KEY_OF_FLAG).flatMap(([flag, key]) => {
    const camel = flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    return [...new Set([flag, camel])].filter((name) => name !== key).map((name) => [name, key]);
  }),
);

/** Flags that set one thing between them: given one, what the file says of the others goes too. */
const TOGETHER: readonly (readonly FlagName[])[] = [
  ['cors-origin', 'no-cors'],
  ['admin-token', 'no-admin'],
];

/** The settings in effect: the flags over the file. */
export interface AppliedConfig {
  values: FlagValues;
  /** `contracts`, several APIs each with its mount; a `--contract` given drops them. */
  contracts?: ContractEntry[];
  /** How messages name a flag's value: `--port` when given as a flag, `"port" in membership-mock.config.json`. */
  nameOf(flag: FlagName): string;
}

/**
 * The flags given, over the settings of the config file: paths are made absolute from the file's folder, secrets
 * read from the environment variables the file names (only where no flag beats them).
 * @example applyConfig({ port: '4020' }, { config: { port: 4010, seed: 7 }, dir: '/app', name: 'm.json' }).values
 * // { port: '4020', seed: '7' }
 */
export function applyConfig(
  given: FlagValues,
  { config, dir, name }: ConfigFile,
  env: NodeJS.ProcessEnv = process.env,
): AppliedConfig {
  if (config.contract !== undefined && config.contracts !== undefined)
    throw new UsageError(`${name} gives both "contract" and "contracts": give one (contracts for several APIs).`);
  // What the flags given set: the file's word on it goes, and no secret of it is read.
  const beaten = new Set(Object.keys(given) as FlagName[]);
  // A switch's opposite (`--admin`, `--cors`: `false`) undoes the file's switch alone: the file's token and
  // origins still hold.
  for (const group of TOGETHER)
    if (group.some((flag) => beaten.has(flag) && given[flag] !== false)) for (const flag of group) beaten.add(flag);
  const secret = (ref: EnvSecret, flag: FlagName, key: string): string | undefined => {
    if (beaten.has(flag)) return undefined;
    const value = env[ref.env];
    if (value) return value;
    throw new UsageError(
      `"${key}" in ${name} is the environment variable ${ref.env}, which is ${value === '' ? 'empty' : 'not set'}.`,
    );
  };
  const fileFlags = configFlags(config, dir, secret);
  const values: FlagValues = {};
  const keyOf: Partial<Record<FlagName, string>> = {};
  for (const [flag, value] of Object.entries(fileFlags) as [FlagName, FlagValues[FlagName]][]) {
    if (value === undefined || beaten.has(flag)) continue;
    Object.assign(values, { [flag]: value });
    keyOf[flag] = KEY_OF_FLAG[flag as keyof typeof KEY_OF_FLAG];
  }
  Object.assign(values, given);
  return {
    values,
    contracts: given.contract === undefined ? contractEntries(config.contracts, dir, env, name) : undefined,
    nameOf: (flag) => (keyOf[flag] === undefined ? `--${flag}` : `"${keyOf[flag]}" in ${name}`),
  };
}

/**
 * The file's `contracts` as the `contracts` option: each contract's path made absolute from the file's folder,
 * each API's own backend with its secret headers read from the environment.
 * @example contractEntries([{ name: 'pay', contract: './pay.yaml', mount: '/pay' }], '/app')
 * // [{ name: 'pay', contract: '/app/pay.yaml', mount: '/pay' }]
 */
export function contractEntries(
  contracts: MockConfig['contracts'],
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
  file = 'the config file',
): ContractEntry[] | undefined {
  return contracts?.map(({ name, contract, mount, proxy }, index) => ({
    name,
    contract: fromFile(contract, dir),
    ...(mount === undefined ? {} : { mount }),
    ...(proxy === undefined ? {} : { proxy: proxyOfEntry(proxy, `contracts[${index}].proxy`, env, file) }),
  }));
}

/**
 * An API's backend as the file gives it, its secret headers read from the environment variables they name (`key`:
 * where it is in the file, for messages: `proxy`, `contracts[1].proxy`).
 */
export function proxyOfEntry(
  proxy: string | ProxyConfig,
  key: string,
  env: NodeJS.ProcessEnv,
  file: string,
): string | ProxyOptions {
  if (typeof proxy === 'string') return proxy;
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries(proxy.headers ?? {})) {
    if (typeof value === 'string') headers[header] = value;
    else {
      const read = env[value.env];
      if (!read)
        throw new UsageError(
          `"${key}.headers.${header}" in ${file} is the environment variable ${value.env}, which is ${read === '' ? 'empty' : 'not set'}.`,
        );
      headers[header] = read;
    }
  }
  return { ...proxy, headers };
}

/** Each key of the file as the flag it stands for, in the flag's text; `secret` reads a value kept out of the file. */
function configFlags(
  config: MockConfig,
  dir: string,
  secret: (ref: EnvSecret, flag: FlagName, key: string) => string | undefined,
): FlagValues {
  const path = (file: string | undefined) => (file === undefined ? undefined : fromFile(file, dir));
  const text = (value: number | string | undefined) => (value === undefined ? undefined : String(value));
  const list = (items: readonly (number | string)[] | undefined) => items?.join(',');
  const not = (value: boolean | undefined) => (value === undefined ? undefined : !value);
  const { faults = {}, admin, cors } = config;
  const proxy = typeof config.proxy === 'string' ? { url: config.proxy } : config.proxy;
  const headers = Object.entries(proxy?.headers ?? {}).map(([header, value]) => {
    const resolved = typeof value === 'string' ? value : secret(value, 'proxy-header', `proxy.headers.${header}`);
    return resolved === undefined ? undefined : `${header}: ${resolved}`;
  });
  return {
    contract: config.contract === undefined ? undefined : [fromFile(config.contract, dir)],
    port: text(config.port),
    host: config.host,
    seed: text(config.seed),
    static: not(config.dynamic),
    stateless: config.stateless,
    placeholders: text(config.placeholders),
    clock: config.clock,
    'as-of': config.asOf,
    data: path(config.data),
    'state-file': path(config.stateFile),
    'state-sync': config.stateSync,
    store: config.store,
    'cors-origin': Array.isArray(cors) ? list(cors) : undefined,
    'no-cors': cors === false || undefined,
    'allowed-hosts': config.allowedHosts === true ? 'all' : list(config.allowedHosts),
    'no-watch': not(config.watch),
    log: config.log,
    'body-limit': text(config.bodyLimit),
    'journal-limit': text(config.journalLimit),
    'journal-bytes': text(config.journalBytes),
    'journal-body-limit': text(config.journalBodyLimit),
    'journal-secrets': config.journalSecrets,
    'session-limit': text(config.sessionLimit),
    'collection-limit': text(config.collectionLimit),
    'state-bytes': text(config.stateBytes),
    'no-security-check': not(config.checkSecurity),
    errors: config.errors,
    latency: text(faults.latency),
    'failure-rate': text(faults.failureRate),
    'drop-rate': text(faults.dropRate),
    'admin-token': admin && admin.token ? secret(admin.token, 'admin-token', 'admin.token') : undefined,
    'no-admin': admin === false || undefined,
    proxy: proxy?.url,
    'proxy-fallback': Array.isArray(proxy?.fallback) ? list(proxy.fallback) : proxy?.fallback,
    'proxy-timeout': text(proxy?.timeout),
    'proxy-header': proxy?.headers && headers.filter((header) => header !== undefined),
    'mock-only': list(proxy?.mockOnly),
    'proxy-only': list(proxy?.proxyOnly),
    'no-proxy-passthrough': not(proxy?.passthrough),
    record: path(config.record),
    'record-state': proxy?.recordState,
  };
}

/** A path of the file, from the file's folder; a URL as it is. */
function fromFile(path: string, dir: string): string {
  return /^https?:/i.test(path) ? path : resolve(dir, path);
}
