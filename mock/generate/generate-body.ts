// Generates bodies from JSON Schemas with json-schema-faker and faker, seeded per mock instance.
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { eachSchemaNode, isObject, mapSchema } from '../schema/schema-facts.js';
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
  /** The instant generated timestamps lead up to (derived from the seed, never from the clock). */
  readonly anchor: Date;
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

/**
 * A schema ready for json-schema-faker, whether any part of it asks faker for a value, its quick draw if any,
 * and the hints of its values if it has any.
 */
interface Prepared {
  schema: JsonSchema;
  usesFaker: boolean;
  quick?: QuickDraw;
  hints?: HintMarks;
  /** Formats standing for the schema's patterns, drawn with their lengths (see patternFormats). */
  patterns?: Formats;
  /** Finds what a `$ref` into the operation's bundle points to. */
  resolveRef?: (ref: string) => JsonSchema;
}

/**
 * Creates a generator that owns its random state: two generators with different seeds in one process do
 * not disturb each other. Timestamps fall in the year before an anchor derived from the seed. Values follow
 * the hints of their schema (`x-faker`, `examples`, `format`, the property's name: see chooseHint).
 * @example createBodyGenerator(42).generate({ type: 'string', format: 'email' }, 'GET /users/1')
 */
export function createBodyGenerator(seed: number | string): BodyGenerator {
  const root = hashSeed(String(seed));
  // A fixed day in 2025, chosen by the seed, so data looks recent and never depends on the wall clock.
  const anchor = new Date(Date.UTC(2025, 0, 1) + (root % 365) * DAY + 9.5 * 3_600_000);
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
      if (ready.usesFaker) faker.seed(callSeed);
      // Past its depth limit json-schema-faker hands back a schema's own default or const object; a copy
      // keeps the contract apart from bodies that are changed or frozen (stored records) later.
      return structuredClone(
        generateSync(ready.schema, {
          seed: callSeed,
          extensions: { faker },
          propAliases: { 'x-faker': 'faker' },
          optionalsProbability: 0.75,
          maxDepth: MAX_DEPTH,
          refDepthMax: REF_DEPTH,
          ...(ready.resolveRef ? { refResolver: ready.resolveRef } : {}),
          // Only a schema with hints pays for a look at every value drawn.
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
  if (typeof schema !== 'object' || schema === null) return { schema: schema as JsonSchema, usesFaker: false };
  const hit = prepared.get(schema);
  // A schema first made ready without its bundle (a record of state) is made ready again with it.
  if (hit && (hit.resolveRef || !isObject(bundle))) return hit;
  const clean = pruneDeep(cleanSchema(schema));
  const parts = isObject(bundle) ? cleanBundle(bundle) : undefined;
  const quick = planQuickDraw(clean);
  const hints = quick ? undefined : markHints(clean);
  dropExamples(clean);
  const patterns = patternFormats(clean);
  const ready = {
    schema: clean as JsonSchema,
    usesFaker: asksFaker(clean),
    ...(quick ? { quick } : {}),
    ...(hints ? { hints } : {}),
    ...(patterns ? { patterns } : {}),
    ...(parts ? { resolveRef: (ref: string) => resolveBundled(parts, ref) } : {}),
  };
  prepared.set(schema, ready);
  return ready;
}

/** Whether a schema has an `x-faker` (or `faker`) keyword anywhere; a property of that name counts too, harmlessly. */
function asksFaker(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  if (Array.isArray(schema)) return schema.some(asksFaker);
  return Object.entries(schema).some(([key, value]) => key === 'x-faker' || key === 'faker' || asksFaker(value));
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

/** Extension keywords hints are read from: `x-faker` is json-schema-faker's, `x-examples` is dropped once read. */
const HINT_KEYWORDS = new Set(['x-faker', 'x-examples']);

/** Drops `x-examples` from a prepared schema's own nodes (json-schema-faker would draw it as data). */
function dropExamples(schema: unknown): void {
  eachSchemaNode(schema, (node) => delete node['x-examples']);
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
  const parts = Object.entries(bundle).map(([name, part]) => [name, pruneAll(cleanSchema(part))] as const);
  for (const [, part] of parts) dropExamples(part);
  return Object.fromEntries(parts);
}

/**
 * Walks a schema keyword by keyword (a property named `items` is a property, not a keyword): keeps only
 * the keywords json-schema-faker knows and those hints are read from, and keeps generated lists short (a
 * page of 100 is no easier to read than 5). json-schema-faker reads an object schema without `properties`
 * as a shorthand whose every other key is a property: `x-oaiTypeLabel`, `xml`, `example` would be data.
 */
function cleanSchema(schema: unknown): unknown {
  return mapSchema(schema, (node) => {
    for (const name of Object.keys(node)) if (!KEYWORDS.has(name) && !HINT_KEYWORDS.has(name)) delete node[name];
    // Prism's loader bounds `format: double` by ±1.8e308: json-schema-faker's draw in that range overflows
    // to Infinity (sent as null). Bounds past 2^53 are brought in, which keeps values within the schema's.
    const { minimum, maximum } = node;
    const low = typeof minimum === 'number' ? minimum : -Infinity;
    const high = typeof maximum === 'number' ? maximum : Infinity;
    if (typeof maximum === 'number' && maximum > SAFE && low <= SAFE) node.maximum = SAFE;
    if (typeof minimum === 'number' && minimum < -SAFE && high >= -SAFE) node.minimum = -SAFE;
    const min = typeof node.minItems === 'number' ? node.minItems : 0;
    if (node.items !== undefined && (typeof node.maxItems !== 'number' || node.maxItems > min + MAX_EXTRA_ITEMS)) {
      node.maxItems = min + MAX_EXTRA_ITEMS;
    }
    return node;
  });
}
