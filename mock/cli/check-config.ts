// Checks a config file's value against its JSON Schema, the one list of the keys it may hold. Only the part of
// JSON Schema that schema is written in is read (READ_KEYWORDS; a test refuses any other, and holds the answers to
// ajv's), so that a refusal can name the key, the one it most likely meant, and what was expected.
import { isObject } from '../lib/json-value.js';
import { nearestName } from '../lib/nearest-name.js';

type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** A JSON Schema, in the part of it {@link configProblem} reads. */
export interface SchemaNode {
  type?: JsonType | JsonType[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  required?: string[];
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  /** `#/definitions/NAME` only. */
  $ref?: string;
  definitions?: Record<string, SchemaNode>;
  /** Said as what is expected, in place of the words the type would give. */
  title?: string;
  description?: string;
}

/** The keywords {@link configProblem} checks, and the annotations it passes over. */
export const READ_KEYWORDS = [
  'type',
  'enum',
  'const',
  'properties',
  'additionalProperties',
  'required',
  'items',
  'anyOf',
  '$ref',
  'definitions',
  'title',
  'description',
  '$schema',
] as const;

/** Where a value sits and what it is called: `file` for the messages, `renamed` for keys of another name. */
export interface CheckContext {
  file: string;
  /** A top-level key a person may write for another (a flag's name: `static` for `dynamic`). */
  renamed?: Readonly<Record<string, string>>;
}

/**
 * What is wrong with `value` under `schema`, as one sentence naming the key (`proxy.timeout`) and what it should
 * be; `undefined` when nothing is. The first problem only: a person fixes one, and runs again.
 * @example configProblem({ prot: 1 }, schema, { file: 'm.json' }) // 'Unknown key "prot" in m.json. Did you mean port?'
 */
export function configProblem(value: unknown, schema: SchemaNode, context: CheckContext): string | undefined {
  const deref = (node: SchemaNode): SchemaNode => {
    if (node.$ref === undefined) return node;
    const name = /^#\/definitions\/(.+)$/.exec(node.$ref)?.[1];
    const target = name === undefined ? undefined : schema.definitions?.[name];
    if (!target) throw new Error(`the config schema refers to ${node.$ref}, which it does not define`);
    return deref(target);
  };
  const where = (path: string) => (path === '' ? context.file : `"${path}" in ${context.file}`);
  const mustBe = (path: string, node: SchemaNode, actual: unknown) =>
    `${where(path)} must be ${expected(node, deref)}, not ${shown(actual)}.`;

  const check = (value: unknown, given: SchemaNode, path: string): string | undefined => {
    const node = deref(given);
    if (node.anyOf) {
      const branches = node.anyOf.map(deref);
      if (branches.some((branch) => check(value, branch, path) === undefined)) return undefined;
      // One branch of the value's kind (an object, a list): its own problem says more than the whole list.
      const kin = branches.filter((branch) => kindsOf(branch).includes(kindOf(value)));
      if (kin.length === 1 && typeof value === 'object' && value !== null) return check(value, kin[0]!, path);
      return mustBe(path, node, value);
    }
    if (!fits(value, node)) return mustBe(path, node, value);
    if (Array.isArray(value) && node.items)
      for (const [index, item] of value.entries()) {
        const problem = check(item, node.items, `${path}[${index}]`);
        if (problem) return problem;
      }
    if (isObject(value)) return checkObject(value, node, path);
    return undefined;
  };

  const checkObject = (value: Record<string, unknown>, node: SchemaNode, path: string): string | undefined => {
    const properties = node.properties ?? {};
    const known = Object.keys(properties);
    const unknown = Object.keys(value).find((key) => !Object.hasOwn(properties, key));
    if (unknown !== undefined && node.additionalProperties === false) {
      const meant = (path === '' ? context.renamed?.[unknown] : undefined) ?? nearestName(unknown, known);
      return (
        `Unknown key "${keyPath(path, unknown)}" in ${context.file}.` +
        (meant === undefined ? '' : ` Did you mean ${path === '' ? meant : keyPath(path, meant)}?`)
      );
    }
    const missing = node.required?.find((key) => !Object.hasOwn(value, key));
    if (missing !== undefined) return `${where(path)} needs "${missing}".`;
    const others = isObject(node.additionalProperties) ? node.additionalProperties : undefined;
    for (const [key, item] of Object.entries(value)) {
      const below = Object.hasOwn(properties, key) ? properties[key] : others;
      const problem = below && check(item, below, keyPath(path, key));
      if (problem) return problem;
    }
    return undefined;
  };

  return check(value, schema, '');
}

/** The kind of a JSON value, as `type` names it (a whole number is a `number` here too). */
function kindOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonType;
}

/** The kinds of value a schema can take. */
function kindsOf(node: SchemaNode): JsonType[] {
  if (node.const !== undefined) return [kindOf(node.const)];
  if (node.enum) return node.enum.map(kindOf);
  return [node.type ?? []].flat().map((type) => (type === 'integer' ? 'number' : type));
}

function fits(value: unknown, node: SchemaNode): boolean {
  if (node.const !== undefined && value !== node.const) return false;
  if (node.enum && !node.enum.includes(value)) return false;
  const types = [node.type ?? []].flat();
  return (
    types.length === 0 || types.some((type) => (type === 'integer' ? Number.isInteger(value) : kindOf(value) === type))
  );
}

/** What a schema expects, in words: `a whole number`, `"auto", "off" or a list of whole numbers`. */
function expected(given: SchemaNode, deref: (node: SchemaNode) => SchemaNode): string {
  const node = deref(given);
  if (node.title !== undefined) return node.title;
  const words = (n: SchemaNode): string[] => {
    const node = deref(n);
    if (node.title !== undefined) return [node.title];
    if (node.anyOf) return node.anyOf.flatMap(words);
    if (node.const !== undefined) return [JSON.stringify(node.const)];
    if (node.enum) return node.enum.map((v) => JSON.stringify(v));
    return [node.type ?? []].flat().flatMap((type) => {
      if (type === 'boolean') return ['true', 'false'];
      if (type === 'array') return [node.items ? `a list of ${plural(expected(node.items, deref))}` : 'a list'];
      return [TYPE_WORDS[type]];
    });
  };
  const all = words(node);
  return all.length > 1 ? `${all.slice(0, -1).join(', ')} or ${all.at(-1)}` : (all[0] ?? 'anything');
}

const TYPE_WORDS: Record<Exclude<JsonType, 'boolean' | 'array'>, string> = {
  object: 'an object',
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  null: 'null',
};

/** `a whole number` → `whole numbers`; anything else as it is. */
function plural(words: string): string {
  const match = /^an? (.*)$/.exec(words);
  return match ? `${match[1]}s` : words;
}

/** A key's path from the top: `proxy.timeout`, `contracts[0].mount`, `proxy.headers["X Key"]` for odd names. */
function keyPath(path: string, key: string): string {
  if (!/^[A-Za-z_$][\w$-]*$/.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** A value as the message shows it: its JSON, cut short. */
function shown(value: unknown): string {
  const json = JSON.stringify(value);
  return json.length > 40 ? `${json.slice(0, 39)}…` : json;
}
