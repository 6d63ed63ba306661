// A fast way to draw the simplest schemas (an id string with a pattern, an object of those) without
// json-schema-faker, whose fixed cost per call was the largest part of a create.
import { compilePattern } from './draw-pattern.js';
import { isObject } from '../schema/schema-facts.js';

/** Draws a value that fits its schema from a seed. */
export type QuickDraw = (seed: number) => unknown;

type Draw = (random: () => number) => unknown;

/** Keywords that do not change which values are valid or how json-schema-faker draws them. */
const NOTES = ['description', 'title', 'example', 'examples', 'readOnly', 'writeOnly', 'deprecated', '$comment'];
const STRING_KEYS = new Set(['type', 'pattern', 'minLength', 'maxLength', ...NOTES]);
const OBJECT_KEYS = new Set(['type', 'properties', 'required', 'additionalProperties', ...NOTES]);

/**
 * A quick draw for a string schema that has only a simple `pattern` (and lengths it keeps), or a closed object whose
 * properties
 * are all required and all such strings; `undefined` for any other schema.
 * @example planQuickDraw({ type: 'string', pattern: '^crd_[0-9A-Z]{26}$' })!(42)
 */
export function planQuickDraw(schema: unknown): QuickDraw | undefined {
  const draw = plan(schema);
  return draw && ((seed) => draw(mulberry32(seed)));
}

function plan(schema: unknown): Draw | undefined {
  if (!isObject(schema)) return undefined;
  const keys = Object.keys(schema);
  if (schema.type === 'string' && typeof schema.pattern === 'string' && keys.every((k) => STRING_KEYS.has(k))) {
    const { minLength, maxLength } = schema;
    // Only lengths the pattern always keeps within (see compilePattern); others are json-schema-faker's.
    if (![minLength, maxLength].every((n) => n === undefined || (Number.isInteger(n) && (n as number) >= 0)))
      return undefined;
    return compilePattern(schema.pattern, {
      minLength: minLength as number | undefined,
      maxLength: maxLength as number | undefined,
    });
  }
  if (schema.type !== 'object' || schema.additionalProperties !== false || !keys.every((k) => OBJECT_KEYS.has(k)))
    return undefined;
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  const required = Array.isArray(schema.required) ? schema.required : [];
  if (properties.length === 0 || properties.some(([name]) => !required.includes(name))) return undefined;
  const draws: [string, Draw][] = [];
  for (const [name, property] of properties) {
    const draw = plan(property);
    if (!draw) return undefined;
    draws.push([name, draw]);
  }
  return (random) => {
    const out: Record<string, unknown> = {};
    for (const [name, draw] of draws) out[name] = draw(random);
    return out;
  };
}

/** A small seeded generator of numbers in [0, 1) (mulberry32): the same seed gives the same numbers. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
