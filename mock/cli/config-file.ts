// The config file a team commits (membership-mock.config.json): found, bounded, read, and checked against its JSON
// Schema (membership-mock.config.schema.json at the package's root). mock/docs/config.md describes it.
import { closeSync, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonErrorOffset, lineAndColumn } from '../lib/json-error-offset.js';
import { configProblem, type SchemaNode } from './check-config.js';
import { UsageError } from './parse-flags.js';

/** The file read from the folder the command was run in, when it is there. */
export const CONFIG_FILE = 'membership-mock.config.json';
/** The file's JSON Schema, published with the package: editors complete and check the file with it. */
export const SCHEMA_FILE = 'membership-mock.config.schema.json';
/** Far more than any team's settings: past it the file is refused before it is read. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** A secret kept out of the committed file: the environment variable that holds it. */
export interface EnvSecret {
  env: string;
}

/** The proxy's settings in the file: `ProxyOptions`, with secrets as environment variables. */
export interface ProxyConfig {
  url: string;
  fallback?: 'auto' | 'off' | number[];
  timeout?: number;
  headers?: Record<string, string | EnvSecret>;
  mockOnly?: string[];
  proxyOnly?: string[];
  passthrough?: boolean;
  recordState?: boolean;
}

/** What the file holds, as its schema allows: the options of `startMock`, by the same names. */
export interface MockConfig {
  $schema?: string;
  contract?: string;
  contracts?: { name: string; contract: string; mount?: string; proxy?: string | ProxyConfig }[];
  port?: number;
  host?: string;
  seed?: number | string;
  dynamic?: boolean;
  stateless?: boolean;
  placeholders?: number;
  clock?: 'system' | 'seed';
  asOf?: string;
  data?: string;
  stateFile?: string;
  stateSync?: 'normal' | 'full';
  store?: string;
  cors?: boolean | string[];
  allowedHosts?: true | string[];
  watch?: boolean;
  log?: 'pretty' | 'json' | 'off';
  bodyLimit?: number;
  journalLimit?: number;
  journalBytes?: number;
  journalBodyLimit?: number;
  journalSecrets?: boolean;
  sessionLimit?: number;
  collectionLimit?: number;
  stateBytes?: number | string;
  checkSecurity?: boolean;
  errors?: boolean;
  faults?: { latency?: number | string; failureRate?: number; dropRate?: number };
  admin?: false | { token?: EnvSecret };
  proxy?: string | ProxyConfig;
  record?: string;
}

/** A config file read and checked. */
export interface ConfigFile {
  config: MockConfig;
  /** The folder its paths are relative to. */
  dir: string;
  /** Its path as messages show it: relative to where the command was run, when it is below it. */
  name: string;
}

/**
 * Reads `--config FILE` (which must be there), else membership-mock.config.json in `cwd` when there is one.
 * Anything wrong with it is a {@link UsageError} naming the file, and where in it.
 * @example loadConfig(undefined, process.cwd())?.config.port // 4010
 */
export function loadConfig(
  given: string | undefined,
  cwd: string,
  renamed: Readonly<Record<string, string>> = {},
): ConfigFile | undefined {
  const path = resolve(cwd, given ?? CONFIG_FILE);
  const below = relative(cwd, path);
  const name = below.startsWith('..') || isAbsolute(below) ? path : below;
  const text = readBounded(path, given !== undefined);
  if (text === undefined) return undefined;
  const value = parseJson(text.replace(/^\uFEFF/, ''), name);
  const problem = configProblem(value, configSchema(), { file: name, renamed });
  if (problem) throw new UsageError(problem);
  return { config: value as MockConfig, dir: dirname(path), name };
}

/** The text of the file, at most {@link MAX_CONFIG_BYTES}; `undefined` when the default file is not there. */
function readBounded(path: string, required: boolean): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT' && !required) return undefined;
    throw new UsageError(`Cannot read the config file ${path}: ${code === 'ENOENT' ? 'no such file' : message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`The config file ${path} is not a file.`);
    if (stat.size > MAX_CONFIG_BYTES)
      throw new UsageError(
        `The config file ${path} is ${stat.size} bytes, more than ${MAX_CONFIG_BYTES}: is it the right file?`,
      );
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The file's JSON value; a file that is not JSON is refused with the line and column where it stops being JSON. */
function parseJson(text: string, name: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // V8's reason, without its offset or its quote of the text: the line and column say where.
    const reason = (error as Error).message.replace(
      / in JSON at position \d+.*$|, (?:\.\.\.)?".*" is not valid JSON$/s,
      '',
    );
    const offset = jsonErrorOffset(text) ?? 0;
    const { line, column } = lineAndColumn(text, offset);
    throw new UsageError(`${name} is not JSON: line ${line}, column ${column}: ${reason}.`);
  }
}

let schema: SchemaNode | undefined;

/** The published schema, read once: from mock/cli/ (sources) or dist/mock/cli/ (build), up to the package root. */
export function configSchema(): SchemaNode {
  if (schema) return schema;
  const from = dirname(fileURLToPath(import.meta.url));
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, SCHEMA_FILE);
    if (existsSync(candidate)) return (schema = JSON.parse(readFileSync(candidate, 'utf8')) as SchemaNode);
    if (dirname(dir) === dir) throw new Error(`${SCHEMA_FILE} is missing from the package (looked up from ${from})`);
  }
}
