// The config file: its schema is the one list of keys (read by the mock's own checker, held here to ajv's reading
// and to the flags), the docs' examples fit it, and the file becomes the flags it stands for, under the flags given.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  applyConfig,
  contractEntries,
  KEY_OF_FLAG,
  RENAMED_KEYS,
  type FlagValues,
} from '../../mock/cli/apply-config.js';
import { configProblem, READ_KEYWORDS, type SchemaNode } from '../../mock/cli/check-config.js';
import { FLAGS } from '../../mock/cli/cli-flags.js';
import {
  CONFIG_FILE,
  configSchema,
  loadConfig,
  MAX_CONFIG_BYTES,
  SCHEMA_FILE,
  type MockConfig,
} from '../../mock/cli/config-file.js';
import { parseFlags, UsageError } from '../../mock/cli/parse-flags.js';

const ROOT = new URL('../../', import.meta.url);
const schema = configSchema();
const CONFIG_DOC = readFileSync(new URL('mock/docs/config.md', ROOT), 'utf8');
/** The JSON blocks of mock/docs/config.md: each one a config file. */
const examples = [...CONFIG_DOC.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map(
  ([, json]) => JSON.parse(json!) as unknown,
);
const check = (value: unknown) => configProblem(value, schema, { file: CONFIG_FILE, renamed: RENAMED_KEYS });
const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true });
const ajvAccepts = ajv.compile(schema);

/** Every key path the schema allows: `port`, `faults.latency`, `proxy.headers`, `contracts[].mount`. */
function schemaKeys(node: SchemaNode = schema, path = ''): string[] {
  const at = node.$ref ? schema.definitions![node.$ref.replace('#/definitions/', '')]! : node;
  const below = [...(at.anyOf ?? []), ...(at.items ? [at.items] : [])].flatMap((n) =>
    schemaKeys(n, n === at.items ? `${path}[]` : path),
  );
  const own = Object.entries(at.properties ?? {}).flatMap(([key, n]) => {
    const keyPath = path ? `${path}.${key}` : key;
    return [keyPath, ...schemaKeys(n, keyPath)];
  });
  return [...new Set([...own, ...below])];
}

/** Every key path a config value holds, as {@link schemaKeys} writes them (an object of headers is one key). */
function valueKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => valueKeys(item, `${path}[]`));
  if (typeof value !== 'object' || value === null || path.endsWith('headers')) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const keyPath = path ? `${path}.${key}` : key;
    return [keyPath, ...valueKeys(item, keyPath)];
  });
}

describe('the published schema', () => {
  test('is a JSON Schema ajv compiles in strict mode', () => {
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(typeof ajvAccepts).toBe('function');
  });

  test('uses only the keywords the mock checks', () => {
    const used = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (typeof node !== 'object' || node === null) return;
      for (const [keyword, value] of Object.entries(node)) {
        used.add(keyword);
        if (keyword === 'properties' || keyword === 'definitions') Object.values(value as object).forEach(walk);
        else if (keyword !== 'enum' && keyword !== 'const' && keyword !== 'required') walk(value);
      }
    };
    walk(schema);
    expect([...used].filter((keyword) => !(READ_KEYWORDS as readonly string[]).includes(keyword))).toEqual([]);
  });

  test('is in the package, at the path the docs give editors', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain(SCHEMA_FILE);
    expect(CONFIG_DOC).toContain(`"$schema": "./node_modules/membership-mock/${SCHEMA_FILE}"`);
  });

  test('has a key for every flag, and a flag for every key but contracts and $schema', () => {
    const keys = schemaKeys();
    const flagKeys = Object.values(KEY_OF_FLAG);
    expect(flagKeys.filter((key) => !keys.includes(key))).toEqual([]);
    const leaves = keys.filter((key) => !keys.some((other) => other.startsWith(`${key}.`)) || key === 'admin');
    expect(
      leaves.filter((key) => !flagKeys.includes(key) && !/^(\$schema|contracts|proxy\.headers\.)|\.env$/.test(key)),
    ).toEqual([]);
    const flags = Object.keys(FLAGS).filter((flag) => !['config', 'help', 'version'].includes(flag));
    expect(Object.keys(KEY_OF_FLAG).sort()).toEqual(flags.sort());
  });
});

describe('the examples of mock/docs/config.md', () => {
  test('fit the schema, as the mock and ajv read it', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples) {
      expect(check(example)).toBeUndefined();
      expect(ajvAccepts(example), JSON.stringify(ajvAccepts.errors)).toBe(true);
    }
  });

  test('show every key of the schema between them', () => {
    const shown = new Set(examples.flatMap((example) => valueKeys(example)));
    // An API's own backend has the top-level proxy's keys: shown there.
    const keys = schemaKeys()
      .map((key) => key.replace(/^contracts\[\]\.proxy\./, 'proxy.'))
      .filter((key) => !/^proxy\.headers\.|^admin\.token\.env$/.test(key));
    expect(keys.filter((key) => !shown.has(key) && !shown.has(key.replace('.env', '')))).toEqual([]);
  });

  test('with an unknown key added, are refused by the mock and by ajv', () => {
    for (const example of examples) {
      const wrong = { ...(example as object), prot: 4010 };
      expect(check(wrong)).toMatch(/^Unknown key "prot"/);
      expect(ajvAccepts(wrong)).toBe(false);
    }
  });

  test('list each flag beside the key that holds it, as the mock maps them', () => {
    const rows = [...CONFIG_DOC.matchAll(/^\| `--([a-z-]+)`\s*\| `([\w.]+)`/gm)].map(([, flag, key]) => [flag, key]);
    expect(Object.fromEntries(rows)).toEqual(KEY_OF_FLAG);
  });
});

describe('configProblem', () => {
  test.each<[string, unknown, string]>([
    [
      'an unknown key, naming the nearest',
      { prot: 4010 },
      'Unknown key "prot" in membership-mock.config.json. Did you mean port?',
    ],
    ['an unknown key too far from any', { verbose: true }, 'Unknown key "verbose" in membership-mock.config.json.'],
    [
      "a flag's name, naming the key that holds it",
      { static: true },
      'Unknown key "static" in membership-mock.config.json. Did you mean dynamic?',
    ],
    [
      "a flag's camelCase",
      { adminToken: 'x' },
      'Unknown key "adminToken" in membership-mock.config.json. Did you mean admin.token?',
    ],
    [
      'an unknown key below the top',
      { proxy: { url: 'http://x', timout: 5 } },
      'Unknown key "proxy.timout" in membership-mock.config.json. Did you mean proxy.timeout?',
    ],
    [
      'a wrong type, by its path',
      { port: '4010' },
      '"port" in membership-mock.config.json must be a whole number, not "4010".',
    ],
    [
      'a fraction for a whole number',
      { bodyLimit: 1.5 },
      '"bodyLimit" in membership-mock.config.json must be a whole number, not 1.5.',
    ],
    [
      'a value out of an enum',
      { log: 'loud' },
      '"log" in membership-mock.config.json must be "pretty", "json" or "off", not "loud".',
    ],
    ['a wrong type in a list', { cors: ['a', 1] }, '"cors[1]" in membership-mock.config.json must be a string, not 1.'],
    [
      'a value fitting no alternative',
      { cors: 'x' },
      '"cors" in membership-mock.config.json must be true, false or a list of strings, not "x".',
    ],
    [
      'false for allowedHosts',
      { allowedHosts: false },
      '"allowedHosts" in membership-mock.config.json must be true or a list of strings, not false.',
    ],
    [
      'a secret written in the file',
      { admin: { token: 's3cret' } },
      '"admin.token" in membership-mock.config.json must be { "env": "NAME" } (secrets stay out of the file), not "s3cret".',
    ],
    [
      'a header of the wrong type',
      { proxy: { url: 'http://x', headers: { 'X-Key': 5 } } },
      '"proxy.headers.X-Key" in membership-mock.config.json must be a string or { "env": "NAME" } (secrets stay out of the file), not 5.',
    ],
    [
      'a missing required key',
      { contracts: [{ name: 'pay' }] },
      '"contracts[0]" in membership-mock.config.json needs "contract".',
    ],
    ['a proxy without its url', { proxy: { timeout: 5 } }, '"proxy" in membership-mock.config.json needs "url".'],
    ['a file that is not an object', [1], 'membership-mock.config.json must be an object, not [1].'],
  ])('refuses %s', (_, value, message) => {
    expect(check(value)).toBe(message);
    expect(ajvAccepts(value)).toBe(false);
  });

  test.each<[string, MockConfig]>([
    ['an empty file', {}],
    ['proxy as a URL', { proxy: 'http://localhost:8080' }],
    ['admin off', { admin: false }],
    ['statuses to fall back on', { proxy: { url: 'http://x', fallback: [404, 501] } }],
    ['a seed of text', { seed: 'demo' }],
  ])('accepts %s, as ajv does', (_, value) => {
    expect(check(value)).toBeUndefined();
    expect(ajvAccepts(value)).toBe(true);
  });
});

describe('loadConfig', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mock-config-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('reads membership-mock.config.json from the folder given, and its folder', async () => {
    await writeFile(join(dir, CONFIG_FILE), '\uFEFF{ "port": 4020 }');
    expect(loadConfig(undefined, dir)).toEqual({ config: { port: 4020 }, dir, name: CONFIG_FILE });
  });

  test('without the default file, there is no config', () => {
    expect(loadConfig(undefined, dir)).toBeUndefined();
  });

  test('a file named by --config must be there', () => {
    const path = join(dir, 'ci.json');
    expect(() => loadConfig(path, dir)).toThrow(new UsageError(`Cannot read the config file ${path}: no such file`));
  });

  test('names a file below the folder by its relative path, and one elsewhere in full', async () => {
    await writeFile(join(dir, 'ci.json'), '{}');
    expect(loadConfig(join(dir, 'ci.json'), dir)?.name).toBe('ci.json');
    expect(loadConfig(join(dir, 'ci.json'), join(dir, 'sub'))?.name).toBe(join(dir, 'ci.json'));
  });

  test('refuses a file past 1 MiB without reading it', async () => {
    await writeFile(join(dir, CONFIG_FILE), `{"host": "${'x'.repeat(MAX_CONFIG_BYTES)}"}`);
    expect(() => loadConfig(undefined, dir)).toThrow(/is \d+ bytes, more than 1048576: is it the right file\?/);
  });

  test('refuses a folder in place of the file', () => {
    expect(() => loadConfig(dir, dir)).toThrow(new UsageError(`The config file ${dir} is not a file.`));
  });

  test('refuses a file that is not JSON, with the line and column', async () => {
    await writeFile(join(dir, CONFIG_FILE), '{\n  "port": 4010,\n  "seed": }\n');
    expect(() => loadConfig(undefined, dir)).toThrow(
      new UsageError(`${CONFIG_FILE} is not JSON: line 3, column 11: Unexpected token '}'.`),
    );
  });

  test('refuses an unknown key with the nearest, as the flags do', async () => {
    await writeFile(join(dir, CONFIG_FILE), '{ "prot": 4010 }');
    expect(() => loadConfig(undefined, dir, RENAMED_KEYS)).toThrow(
      new UsageError(`Unknown key "prot" in ${CONFIG_FILE}. Did you mean port?`),
    );
  });
});

describe('applyConfig', () => {
  const file = (config: MockConfig) => ({ config, dir: '/app/config', name: CONFIG_FILE });

  test('gives each key as the flag it stands for, paths from the file’s folder', () => {
    const { values } = applyConfig(
      {},
      file({
        port: 4020,
        seed: 7,
        dynamic: false,
        watch: false,
        cors: ['http://a.test', 'http://b.test'],
        data: '../fixtures.json',
        stateFile: 'state.db',
        record: 'https://files.test/x.har',
        faults: { latency: '100-300', failureRate: 0.5 },
        proxy: { url: 'http://x', fallback: [404, 501], headers: { 'X-Tenant': 'acme' }, passthrough: false },
      }),
    );
    expect(values).toEqual({
      port: '4020',
      seed: '7',
      static: true,
      'no-watch': true,
      'cors-origin': 'http://a.test,http://b.test',
      data: '/app/fixtures.json',
      'state-file': '/app/config/state.db',
      record: 'https://files.test/x.har',
      latency: '100-300',
      'failure-rate': '0.5',
      proxy: 'http://x',
      'proxy-fallback': '404,501',
      'proxy-header': ['X-Tenant: acme'],
      'no-proxy-passthrough': true,
    });
  });

  test('a flag given beats the key, and names its own value in messages', () => {
    const applied = applyConfig({ port: '4030' }, file({ port: 4020, host: '0.0.0.0' }));
    expect(applied.values).toEqual({ port: '4030', host: '0.0.0.0' });
    expect(applied.nameOf('port')).toBe('--port');
    expect(applied.nameOf('host')).toBe(`"host" in ${CONFIG_FILE}`);
    expect(applied.nameOf('seed')).toBe('--seed');
  });

  test.each([
    [{ 'cors-origin': 'http://c.test' }, { cors: false }, { 'cors-origin': 'http://c.test' }],
    [{ 'no-cors': true }, { cors: ['http://a.test'] }, { 'no-cors': true }],
    [{ 'no-admin': true }, { admin: { token: { env: 'UNSET_TOKEN' } } }, { 'no-admin': true }],
  ] as const)('the flags %j replace what the file says of the same setting', (given, config, values) => {
    expect(applyConfig(given, file(config as MockConfig)).values).toEqual(values);
  });

  test('reads secrets from the environment variables the file names', () => {
    const env = { MOCK_TOKEN: 's3cret', STAGING_AUTH: 'Bearer t' };
    const config = file({
      admin: { token: { env: 'MOCK_TOKEN' } },
      proxy: { url: 'http://x', headers: { Authorization: { env: 'STAGING_AUTH' } } },
    });
    expect(applyConfig({}, config, env).values).toMatchObject({
      'admin-token': 's3cret',
      'proxy-header': ['Authorization: Bearer t'],
    });
  });

  test.each([
    [{}, 'not set'],
    [{ MOCK_TOKEN: '' }, 'empty'],
  ])('refuses a secret whose variable is %j', (env, why) => {
    expect(() => applyConfig({}, file({ admin: { token: { env: 'MOCK_TOKEN' } } }), env)).toThrow(
      new UsageError(`"admin.token" in ${CONFIG_FILE} is the environment variable MOCK_TOKEN, which is ${why}.`),
    );
  });

  test('does not read a secret a flag beats', () => {
    const config = file({ admin: { token: { env: 'UNSET_TOKEN' } } });
    expect(applyConfig({ 'admin-token': 'flag' }, config, {}).values).toEqual({ 'admin-token': 'flag' });
  });

  test('refuses contract and contracts together', () => {
    const config = file({ contract: 'a.yaml', contracts: [{ name: 'b', contract: 'b.yaml' }] });
    expect(() => applyConfig({}, config)).toThrow(/gives both "contract" and "contracts": give one/);
  });

  test('gives contracts as the contracts option; --contract drops them', () => {
    const config = file({ contracts: [{ name: 'payments', contract: './payments.yaml', mount: '/payments' }] });
    expect(applyConfig({}, config).contracts).toEqual([
      { name: 'payments', contract: '/app/config/payments.yaml', mount: '/payments' },
    ]);
    expect(applyConfig({ contract: ['other.yaml'] }, config)).toMatchObject({
      values: { contract: ['other.yaml'] },
      contracts: undefined,
    });
  });
});

describe('contractEntries', () => {
  test('makes each contract’s path absolute from the file’s folder, keeps URLs, and a mount only when given', () => {
    expect(
      contractEntries(
        [
          { name: 'membership', contract: 'membership.yaml' },
          { name: 'payments', contract: '../apis/payments.yaml', mount: '/payments' },
          { name: 'identity', contract: 'https://apis.test/identity.yaml', mount: '/id' },
        ],
        '/app/mock',
      ),
    ).toEqual([
      { name: 'membership', contract: '/app/mock/membership.yaml' },
      { name: 'payments', contract: '/app/apis/payments.yaml', mount: '/payments' },
      { name: 'identity', contract: 'https://apis.test/identity.yaml', mount: '/id' },
    ]);
  });

  test('without contracts, there are none', () => {
    expect(contractEntries(undefined, '/app')).toBeUndefined();
  });
});

describe('a switch and its opposite', () => {
  const file = (config: MockConfig) => ({ config, dir: '/app', name: 'membership-mock.config.json' });
  const flags = (...argv: string[]) => parseFlags(argv, FLAGS).values;

  test.each<[string[], MockConfig, Partial<FlagValues>]>([
    [['--no-stateless'], { stateless: true }, { stateless: false }],
    [['--no-errors'], { errors: true }, { errors: false }],
    [['--watch'], { watch: false }, { 'no-watch': false }],
    [['--security-check'], { checkSecurity: false }, { 'no-security-check': false }],
    [['--cors'], { cors: false }, { 'no-cors': false }],
    [['--admin'], { admin: false }, { 'no-admin': false }],
  ])('%j undoes the file’s %j', (argv, config, expected) => {
    expect(applyConfig(flags(...argv), file(config)).values).toMatchObject(expected);
  });

  test('the last of a switch and its opposite wins', () => {
    expect(flags('--stateless', '--no-stateless').stateless).toBe(false);
    expect(flags('--no-stateless', '--stateless').stateless).toBe(true);
    expect(flags('--no-cors', '--cors')['no-cors']).toBe(false);
    expect(flags('--cors', '--no-cors')['no-cors']).toBe(true);
  });

  test('an opposite undoes the switch alone: the file’s origins and admin token still hold', () => {
    const cors = applyConfig(flags('--cors'), file({ cors: ['http://a.test'] })).values;
    expect([cors['cors-origin'], cors['no-cors']]).toEqual(['http://a.test', false]);
    const admin = applyConfig(flags('--admin'), file({ admin: { token: { env: 'T' } } }), { T: 's3cret' }).values;
    expect([admin['admin-token'], admin['no-admin']]).toEqual(['s3cret', false]);
  });

  test('a value that looks like an opposite is still the value of its flag', () => {
    // parseArgs reads `--contract --cors` as a missing value, not as `--contract` of the next argument.
    expect(() => flags('--contract', '--cors', 'a.yaml')).toThrow(/--contract/);
    expect(flags('--contract=--cors').contract).toEqual(['--cors']);
  });

  test('an opposite takes no value, as a switch does', () => {
    expect(() => flags('--cors=true')).toThrow(/--cors/);
    expect(() => flags('--no-stateless=1')).toThrow(/--no-stateless/);
  });

  test('a flag that is no switch has no opposite', () => {
    expect(() => flags('--no-port')).toThrow(/^Unknown option '--no-port'\./);
  });
});
