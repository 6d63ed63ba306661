// Makes a bundled contract's schemas whole, in place: each schema reference is replaced by the schema it names,
// one shared object per named schema (never a copy), except a reference that closes a cycle (a schema that
// contains itself, directly or through others): it becomes `{ $ref: '#/__bundled__/<name>' }`, with the schema
// kept in the `__bundled__` of each operation that reaches it, the form Prism's own loader gives recursion
// and its validator reads. Work is linear in the contract's size: Prism's loader dereferenced the whole
// document, then copied every shared schema where it is used (Stripe's 4 MB never finished).
import { isContainer } from '../lib/json-value.js';
import { FILES_KEY, fileStem, type References } from './bundle-references.js';
import { ContractError } from './contract-error.js';
import { lookUp, parsePointer } from '../lib/json-pointer.js';
import { BUNDLED_REF } from '../schema/operation-bundle.js';
import { forEachSubschema, mapSubschemas } from '../schema/schema-keywords.js';
import { componentsOf } from '../lib/strongly-connected.js';
import type { RefHolder } from './walk-references.js';

/** The schemas of a contract made whole: what each operation needs besides its own schemas. */
export interface ResolvedSchemas {
  /** The `__bundled__` of an operation whose schemas are these: the cycles they reach, by name; none: `undefined`. */
  bundleFor(schemas: Iterable<unknown>): Record<string, unknown> | undefined;
  /**
   * A schema made by Prism's transformers (a Swagger 2.0 parameter's, one given a parameter's example…),
   * converted as Prism converts it; the parts already resolved here are kept as they are.
   */
  finish(schema: unknown): unknown;
}

/** Turns one schema object's OpenAPI keywords into JSON Schema (nullable, example…); its subschemas are done apart. */
export type ConvertKeywords = (schema: Record<string, unknown>) => Record<string, unknown>;

const isRef = (value: unknown): value is RefHolder =>
  isContainer(value) && typeof (value as RefHolder).$ref === 'string';

/**
 * Resolves every schema of the contract (each root of `references.schemaRoots` is replaced by its resolution).
 * @param convert applied to every schema object; `undefined` leaves keywords as they are (a document that
 *   declares its `jsonSchemaDialect`, as Prism does)
 */
export function resolveSchemas(
  document: Record<string, unknown>,
  references: References,
  convert?: ConvertKeywords,
): ResolvedSchemas {
  const targets = new Map<RefHolder, unknown>();
  const follow = (holder: RefHolder): unknown => {
    const known = targets.get(holder);
    if (known !== undefined || targets.has(holder)) return known;
    const chain = new Set<object>([holder]);
    let value: unknown = holder;
    while (isRef(value)) {
      const lookup = lookUp(document, parsePointer(value.$ref) ?? []);
      value = lookup.found ? lookup.value : undefined;
      if (isContainer(value) && chain.has(value)) {
        throw new ContractError(`The reference "${holder.$ref}" only leads to references, round in a circle.`);
      }
      if (isContainer(value)) chain.add(value);
    }
    targets.set(holder, value);
    return value;
  };

  // A map of schemas given as a reference is the map it names, with the entries beside the $ref added.
  const entriesOf = (map: object): object => {
    if (!isRef(map)) return map;
    const target = follow(map);
    const { $ref: _ref, ...beside } = map;
    return isContainer(target) ? { ...target, ...beside } : beside;
  };

  // The graph of named schemas: which contain (or refer to) which. A cycle is a component with an edge inside it.
  const named = new Set<object>();
  for (const holder of references.schemaRefs) {
    const target = follow(holder);
    if (isContainer(target)) named.add(target);
  }
  const edges = new Map<object, object[]>();
  for (const schema of named) {
    const out: object[] = [];
    const scan = (node: object): void => {
      if (isRef(node)) {
        const target = follow(node);
        if (isContainer(target)) out.push(target);
      }
      forEachSubschema(node, (child) => (named.has(child) ? out.push(child) : scan(child)), entriesOf);
    };
    scan(schema);
    edges.set(schema, out);
  }
  const component = componentsOf(named, (schema) => edges.get(schema)!);

  const keys = new Map<object, string>();
  const byKey = new Map<string, object>();
  const keyOf = (target: object, holder: RefHolder): string => {
    const known = keys.get(target);
    if (known) return known;
    const base = nameOf(parsePointer(holder.$ref) ?? []);
    let key = base;
    for (let n = 2; byKey.has(key); n++) key = `${base}_${n}`;
    keys.set(target, key);
    byKey.set(key, target);
    return key;
  };

  const resolved = new Map<object, unknown>();
  const resolveNode = (node: object, owner: object | undefined): unknown => {
    const done = resolved.get(node);
    if (done !== undefined) return done;
    let result: unknown;
    if (isRef(node)) result = resolveRef(node, owner);
    else {
      const self = named.has(node) ? node : owner;
      const copy = mapSubschemas(node, (child) => resolveNode(child, self), convert !== undefined, entriesOf);
      result = convert ? convert(copy) : copy;
    }
    resolved.set(node, result);
    return result;
  };
  const resolveRef = (holder: RefHolder, owner: object | undefined): unknown => {
    const target = follow(holder);
    const { $ref: _ref, ...siblings } = holder;
    const beside = Object.keys(siblings).length > 0;
    if (!isContainer(target)) return target ?? {};
    if (owner !== undefined && component.get(owner) === component.get(target)) {
      const ref = { $ref: `${BUNDLED_REF}${keyOf(target, holder)}` };
      return beside ? { ...ref, ...(resolveNode(siblings, owner) as object) } : ref;
    }
    if (!beside) return resolveNode(target, target);
    // Keywords beside a $ref (OpenAPI 3.1) win over the target's, merged before the conversion, as Prism does.
    const drop = convert !== undefined;
    const merged = {
      ...mapSubschemas(target, (child) => resolveNode(child, target), drop, entriesOf),
      ...mapSubschemas(siblings, (child) => resolveNode(child, owner), drop, entriesOf),
    };
    return convert ? convert(merged) : merged;
  };

  // Swagger 2.0 transformers read a body's or a response's example from its schema's own `example`, which the
  // conversion turns into `examples`: a root keeps it beside them (Prism's transformers convert after reading).
  const rootOf = (schema: unknown): unknown => {
    if (!isContainer(schema)) return schema;
    const root = resolveNode(schema, undefined);
    const own = isRef(schema) && !('example' in schema) ? follow(schema) : schema;
    return convert && isContainer(own) && 'example' in own && isContainer(root)
      ? { ...root, example: (own as { example: unknown }).example }
      : root;
  };
  const roots = references.schemaRoots.map(([parent, key]) => [parent, key, rootOf(parent[key])] as const);
  for (const target of named) resolveNode(target, target);
  for (const [parent, key, schema] of roots) parent[key] = schema;

  const mine = new WeakSet<object>();
  for (const result of resolved.values()) if (isContainer(result)) mine.add(result);
  const finished = new WeakMap<object, unknown>();
  const finish = (schema: unknown): unknown => {
    if (!isContainer(schema) || mine.has(schema)) return schema;
    const known = finished.get(schema);
    if (known) return known;
    const copy = mapSubschemas(schema, finish, convert !== undefined);
    const result = convert ? convert(copy) : copy;
    finished.set(schema, result);
    if (isContainer(result)) finished.set(result, result);
    return result;
  };
  return { bundleFor: bundles(component, edges, keys, byKey, (target) => resolved.get(target)), finish };
}

/**
 * Builds `bundleFor`: the cycles an operation reaches are those of the named schemas its schemas contain,
 * and of every schema those lead to (the components' successors, remembered per component).
 */
function bundles(
  component: Map<object, number>,
  edges: Map<object, object[]>,
  keys: Map<object, string>,
  byKey: Map<string, object>,
  resolvedOf: (target: object) => unknown,
): ResolvedSchemas['bundleFor'] {
  const namedBy = new Map<unknown, object>();
  for (const target of component.keys()) namedBy.set(resolvedOf(target), target);
  const successors = new Map<number, Set<number>>();
  const bundledIn = new Map<number, string[]>();
  for (const [target, id] of component) {
    const out = successors.get(id) ?? successors.set(id, new Set()).get(id)!;
    for (const to of edges.get(target)!) if (component.get(to) !== id) out.add(component.get(to)!);
    const key = keys.get(target);
    if (key) (bundledIn.get(id) ?? bundledIn.set(id, []).get(id)!).push(key);
  }
  // Components are numbered successors first, so each one's successors are known before it.
  const reach = new Map<number, Set<string>>();
  for (let id = 0; id < successors.size; id++) {
    const all = new Set(bundledIn.get(id));
    for (const to of successors.get(id) ?? []) for (const key of reach.get(to)!) all.add(key);
    reach.set(id, all);
  }
  const made = new Map<string, Record<string, unknown> | undefined>();
  return (schemas) => {
    const found = new Set<number>();
    const seen = new Set<object>();
    const visit = (node: unknown): void => {
      if (!isContainer(node) || seen.has(node)) return;
      seen.add(node);
      const target = namedBy.get(node);
      if (target) return void found.add(component.get(target)!);
      if (isRef(node) && node.$ref.startsWith(BUNDLED_REF)) {
        const key = node.$ref.slice(BUNDLED_REF.length);
        return void found.add(component.get(byKey.get(key)!)!);
      }
      forEachSubschema(node, visit);
    };
    for (const schema of schemas) visit(schema);
    const ids = [...found].sort((a, b) => a - b).join(',');
    if (!made.has(ids)) {
      const names = new Set<string>();
      for (const id of found) for (const key of reach.get(id)!) names.add(key);
      made.set(
        ids,
        names.size === 0
          ? undefined
          : Object.fromEntries([...names].sort().map((key) => [key, resolvedOf(byKey.get(key)!)])),
      );
    }
    return made.get(ids);
  };
}

/** A bundle name for the schema a pointer names: its last segment (a file's stem), kept to safe characters. */
function nameOf(path: readonly string[]): string {
  const last = path.length === 2 && path[0] === FILES_KEY ? fileStem(path[1]!) : (path[path.length - 1] ?? 'root');
  const parent = path[path.length - 2];
  const name = /^\d+$/.test(last) && parent !== undefined ? `${parent}_${last}` : last;
  return name.replace(/[^A-Za-z0-9_.-]/g, '_') || 'schema';
}
