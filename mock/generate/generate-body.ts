// Generates bodies from JSON Schemas with json-schema-faker and faker, seeded per mock instance.
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { mapSchema } from '../spec/schema-facts.js';
import { hintTransform } from './hint-transform.js';
import { hashSeed } from './hash-seed.js';
import { markHints, type HintMarks } from './mark-hints.js';
import { planQuickDraw, type QuickDraw } from './quick-draw.js';
import { createSeededFaker } from './seeded-faker.js';

/** Turns a schema and a key into a body; the same seed, schema and key always give the same body. */
export interface BodyGenerator {
  generate(schema: unknown, key: string): unknown;
  /** The instant generated timestamps lead up to (derived from the seed, never from the clock). */
  readonly anchor: Date;
}

const DAY = 86_400_000;
const MAX_EXTRA_ITEMS = 5;

/**
 * A schema ready for json-schema-faker, whether any part of it asks faker for a value, its quick draw if any,
 * and the hints of its values if it has any.
 */
interface Prepared {
  schema: JsonSchema;
  usesFaker: boolean;
  quick?: QuickDraw;
  hints?: HintMarks;
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
  // Schemas made ready once each, for this generator only: nothing is shared with other mocks.
  const prepared = new WeakMap<object, Prepared>();
  return {
    anchor,
    generate(schema, key) {
      const callSeed = hashSeed(`${root}|${key}`);
      const ready = prepare(prepared, schema);
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
          // Only a schema with hints pays for a look at every value drawn.
          ...(ready.hints ? { outputTransform: hintTransform(ready.hints, faker, callSeed) } : {}),
          formats: {
            'date-time': (random) => instant(anchor, random.next()).toISOString().replace('.000Z', 'Z'),
            date: (random) => instant(anchor, random.next()).toISOString().slice(0, 10),
          },
        }),
      );
    },
  };
}

function instant(anchor: Date, fraction: number): Date {
  return new Date(anchor.getTime() - Math.floor(fraction * 365) * DAY - Math.floor(fraction * 86_400) * 1000);
}

/** Drops Prism's bookkeeping (`x-stoplight`, `$schema`) once per schema object, remembered in `prepared`. */
function prepare(prepared: WeakMap<object, Prepared>, schema: unknown): Prepared {
  if (typeof schema !== 'object' || schema === null) return { schema: schema as JsonSchema, usesFaker: false };
  const hit = prepared.get(schema);
  if (hit) return hit;
  const clean = cleanSchema(schema);
  const quick = planQuickDraw(clean);
  const hints = quick ? undefined : markHints(clean);
  const ready = {
    schema: clean as JsonSchema,
    usesFaker: asksFaker(clean),
    ...(quick ? { quick } : {}),
    ...(hints ? { hints } : {}),
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

/**
 * Walks a schema keyword by keyword (a property named `items` is a property, not a keyword): drops
 * Prism's bookkeeping and keeps generated lists short (a page of 100 is no easier to read than 5).
 */
function cleanSchema(schema: unknown): unknown {
  return mapSchema(schema, ({ 'x-stoplight': _bookkeeping, $schema: _dialect, ...node }) => {
    const min = typeof node.minItems === 'number' ? node.minItems : 0;
    if (node.items !== undefined && (typeof node.maxItems !== 'number' || node.maxItems > min + MAX_EXTRA_ITEMS)) {
      node.maxItems = min + MAX_EXTRA_ITEMS;
    }
    return node;
  });
}
