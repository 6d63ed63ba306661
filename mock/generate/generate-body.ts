// Generates bodies from JSON Schemas with json-schema-faker and faker, seeded per mock instance.
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { eachSchemaNode, isObject, mapSchema, type JsonObject } from '../schema/schema-facts.js';
import { hintTransform } from './hint-transform.js';
import { hashSeed } from '../lib/hash-seed.js';
import { markHints, type HintMarks } from './mark-hints.js';
import { pruneAll, pruneDeep } from './prune-deep.js';
import { compilePattern } from './draw-pattern.js';
import { FORMATS, type Formats } from './formats.js';
import { planQuickDraw, type QuickDraw } from './quick-draw.js';
import { createSeededFaker } from './seeded-faker.js';

/** Turns a schema and a key into a body; the same seed, schema and key always give the same body. */
export interface BodyGenerator {
  /** `bundle`: the operation's `__bundled__`, where Prism's loader keeps the recursive parts `$ref` points to. */
  generate(schema: unknown, key: string, bundle?: unknown): unknown;
  /** The instant generated timestamps lead up to: derived from the seed unless given, never read from the clock. */
  readonly anchor: Date;
}

/** What a generator is made with besides its seed. */
export interface GeneratorOptions {
  /**
   * The instant generated timestamps lead up to. Only timestamps follow it: every other value is the seed's.
   * @default a day of 2025 derived from the seed, at 09:30 UTC
   */
  anchor?: Date;
}

const DAY = 86_400_000;
const MAX_EXTRA_ITEMS = 5;
/**
 * json-schema-faker's depth limit, past which it fills required values with "", 0 or {}: far deeper than
 * real schemas' required values go. pruneDeep keeps bodies small instead, and REF_DEPTH bounds recursion.
 */
const MAX_DEPTH = 64;
/** How many `$ref`s deep (each a step of recursion, the loader having inlined all others) a body goes. */
const REF_DEPTH = 4;

/** A schema ready for json-schema-faker, its quick draw if any, and the hints of its values if it has any. */
interface Prepared {
  schema: JsonSchema;
  quick?: QuickDraw;
  hints?: HintMarks;
  /** Formats standing for the schema's patterns, drawn with their lengths (see patternFormats). */
  patterns?: Formats;
  /** Finds what a `$ref` into the operation's bundle points to. */
  resolveRef?: (ref: string) => JsonSchema;
}

/**
 * Creates a generator that owns its random state: two generators with different seeds in one process do
 * not disturb each other. Timestamps fall in the year before the anchor (see GeneratorOptions). Values follow
 * the hints of their schema (`x-faker`, `examples`, `format`, the property's name: see chooseHint).
 * @example createBodyGenerator(42).generate({ type: 'string', format: 'email' }, 'GET /users/1')
 */
export function createBodyGenerator(seed: number | string, options: GeneratorOptions = {}): BodyGenerator {
  const root = hashSeed(String(seed));
  // A fixed day in 2025, chosen by the seed, so data looks recent and never depends on the wall clock.
  const { anchor = new Date(Date.UTC(2025, 0, 1) + (root % 365) * DAY + 9.5 * 3_600_000) } = options;
  const faker = createSeededFaker(anchor);
  const formats: Formats = {
    ...FORMATS,
    'date-time': (random) => instant(anchor, random.next()).toISOString().replace('.000Z', 'Z'),
    date: (random) => instant(anchor, random.next()).toISOString().slice(0, 10),
  };
  // Schemas made ready once each, for this generator only: nothing is shared with other mocks.
  const prepared = new WeakMap<object, Prepared>();
  return {
    anchor,
    generate(schema, key, bundle) {
      const callSeed = hashSeed(`${root}|${key}`);
      const ready = prepare(prepared, schema, bundle);
      if (ready.quick) return ready.quick(callSeed);
      // Past its depth limit json-schema-faker hands back a schema's own default or const object; a copy
      // keeps the contract apart from bodies that are changed or frozen (stored records) later.
      return structuredClone(
        generateSync(ready.schema, {
          seed: callSeed,
          optionalsProbability: 0.75,
          maxDepth: MAX_DEPTH,
          refDepthMax: REF_DEPTH,
          ...(ready.resolveRef ? { refResolver: ready.resolveRef } : {}),
          // Only a schema with hints pays for a look at every value drawn. `x-faker` is one of them: faker's
          // value is used only where it fits the schema (json-schema-faker would put it in whatever it is).
          ...(ready.hints ? { outputTransform: hintTransform(ready.hints, faker, callSeed) } : {}),
          formats: ready.patterns ? { ...formats, ...ready.patterns } : formats,
        }),
      );
    },
  };
}

function instant(anchor: Date, fraction: number): Date {
  return new Date(anchor.getTime() - Math.floor(fraction * 365) * DAY - Math.floor(fraction * 86_400) * 1000);
}

/**
 * Makes a schema ready once per schema object, remembered in `prepared`: cleaned (see cleanSchema), pruned
 * deep down (see pruneDeep), with the operation's bundle beside it for its `$ref`s to reach.
 */
function prepare(prepared: WeakMap<object, Prepared>, schema: unknown, bundle?: unknown): Prepared {
  if (typeof schema !== 'object' || schema === null) return { schema: schema as JsonSchema };
  const hit = prepared.get(schema);
  // A schema first made ready without its bundle (a record of state) is made ready again with it.
  if (hit && (hit.resolveRef || !isObject(bundle))) return hit;
  const clean = pruneDeep(cleanSchema(schema));
  const parts = isObject(bundle) ? cleanBundle(bundle) : undefined;
  const quick = planQuickDraw(clean);
  const hints = quick ? undefined : markHints(clean, ...Object.values(parts ?? {}));
  // Hints are read: json-schema-faker must not see them (it would draw `x-examples` as data, and put
  // faker's value for an `x-faker` in place of the value whatever the schema's type).
  for (const part of [clean, ...Object.values(parts ?? {})]) dropHintKeywords(part);
  const patterns = patternFormats(clean);
  const ready = {
    schema: clean as JsonSchema,
    ...(quick ? { quick } : {}),
    ...(hints ? { hints } : {}),
    ...(patterns ? { patterns } : {}),
    ...(parts ? { resolveRef: (ref: string) => resolveBundled(parts, ref) } : {}),
  };
  prepared.set(schema, ready);
  return ready;
}

/** The keywords json-schema-faker 0.6.3 knows (its own list); `$schema` is Prism's bookkeeping, left out. */
const KEYWORDS = new Set([
  ...['$id', '$ref', '$defs', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', 'type'],
  ...['enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength'],
  ...['maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType', 'contentSchema', 'items'],
  ...['prefixItems', 'contains', 'minItems', 'maxItems', 'uniqueItems', 'minContains', 'maxContains'],
  ...['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties'],
  ...['propertyNames', 'dependentRequired', 'dependentSchemas', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then'],
  ...['else', 'faker', 'default', 'examples', 'description', 'title', 'readOnly', 'writeOnly', 'deprecated'],
]);

const SAFE = Number.MAX_SAFE_INTEGER;

/** Extension keywords hints are read from, dropped once read (see dropHintKeywords). */
const HINT_KEYWORDS = new Set(['x-faker', 'x-examples']);

/** Drops the keywords hints are read from (`faker` too, json-schema-faker's) from a prepared schema's own nodes. */
function dropHintKeywords(schema: unknown): void {
  eachSchemaNode(schema, (node) => {
    delete node['x-examples'];
    delete node['x-faker'];
    delete node.faker;
  });
}

/**
 * Makes each string with a pattern compilePattern can draw a string of a format of its own, drawn to fit
 * its lengths too (json-schema-faker pads or cuts a pattern's string to the lengths, breaking the pattern).
 * Changes the prepared schema's own nodes; `undefined` when there is no such pattern.
 */
function patternFormats(schema: unknown): Formats | undefined {
  let formats: Formats | undefined;
  eachSchemaNode(schema, (node) => {
    // A format says more than a pattern beside it (Prism's loader adds one to `format: byte`).
    const kept = [node.format, node.enum, node.const].some((keyword) => keyword !== undefined);
    if (node.type !== 'string' || typeof node.pattern !== 'string' || kept) return;
    const { minLength, maxLength } = node;
    const lengths = {
      ...(typeof minLength === 'number' ? { minLength } : {}),
      ...(typeof maxLength === 'number' ? { maxLength } : {}),
    };
    const draw = compilePattern(node.pattern, lengths);
    if (!draw) return;
    formats ??= {};
    const name = `mock-pattern-${Object.keys(formats).length}`;
    formats[name] = (random) => draw(() => random.next());
    for (const key of ['pattern', 'minLength', 'maxLength']) delete node[key];
    node.format = name;
  });
  return formats;
}

/** A `#/__bundled__/…` JSON pointer into the cleaned bundle; anything else cannot be reached. */
function resolveBundled(parts: Record<string, unknown>, ref: string): JsonSchema {
  const [root, ...steps] = ref
    .split('/')
    .slice(1)
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = root === '__bundled__' ? parts : undefined;
  for (const step of steps)
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[step] : undefined;
  if (node === undefined || ref.charAt(0) !== '#') throw new Error(`Unresolved $ref: ${ref}`);
  return node as JsonSchema;
}

/** The bundle's schemas, cleaned, each only required properties (where recursion may stop). */
function cleanBundle(bundle: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(bundle).map(([name, part]) => [name, pruneAll(cleanSchema(part))]));
}

/**
 * Walks a schema keyword by keyword (a property named `items` is a property, not a keyword): keeps only
 * the keywords json-schema-faker knows and those hints are read from, and keeps generated lists short (a
 * page of 100 is no easier to read than 5). json-schema-faker reads an object schema without `properties`
 * as a shorthand whose every other key is a property: `x-oaiTypeLabel`, `xml`, `example` would be data.
 */
function cleanSchema(schema: unknown): unknown {
  return mapSchema(schema, (node) => {
    tupleAsPrefixItems(node);
    for (const name of Object.keys(node)) if (!KEYWORDS.has(name) && !HINT_KEYWORDS.has(name)) delete node[name];
    // Prism's loader bounds `format: double` by ±1.8e308: json-schema-faker's draw in that range overflows
    // to Infinity (sent as null). Bounds past 2^53 are brought in, which keeps values within the schema's.
    const { minimum, maximum } = node;
    const low = typeof minimum === 'number' ? minimum : -Infinity;
    const high = typeof maximum === 'number' ? maximum : Infinity;
    if (typeof maximum === 'number' && maximum > SAFE && low <= SAFE) node.maximum = SAFE;
    if (typeof minimum === 'number' && minimum < -SAFE && high >= -SAFE) node.minimum = -SAFE;
    // A tuple's items are all drawn; the extra ones after them are few. json-schema-faker draws none past the
    // tuple without `items`, even for `minItems`: those may be anything.
    const tuple = Array.isArray(node.prefixItems) ? node.prefixItems.length : 0;
    if (typeof node.minItems === 'number' && node.minItems > tuple && tuple > 0 && node.items === undefined)
      node.items = {};
    const min = Math.max(typeof node.minItems === 'number' ? node.minItems : 0, tuple);
    if (node.items !== undefined && (typeof node.maxItems !== 'number' || node.maxItems > min + MAX_EXTRA_ITEMS)) {
      node.maxItems = min + MAX_EXTRA_ITEMS;
    }
    return node;
  });
}

/**
 * A draft-4 tuple (`items: [a, b]`, with `additionalItems` for what follows; Swagger 2.0 documents have them)
 * written as 2020-12 writes it (`prefixItems: [a, b]`, with `items`), the form json-schema-faker draws one
 * item per schema from, in order; it reads a list under `items` as an object's properties ("0", "1"). Without
 * `additionalItems` (any item may follow) only the tuple is drawn. Changes the node, a prepared copy.
 * @example tupleAsPrefixItems({ items: [{ type: 'string' }], additionalItems: false }) // prefixItems, items: false
 */
function tupleAsPrefixItems(node: JsonObject): void {
  if (!Array.isArray(node.items)) return;
  node.prefixItems = node.items;
  const rest = node.additionalItems;
  if (rest === undefined || rest === true) delete node.items;
  else node.items = rest;
  delete node.additionalItems;
}
