// Static bodies as Prism's static mode makes them: @stoplight/json-schema-sampler, the sampler Prism itself uses.
import { prism } from '../prism/prism-modules.js';

/** How much work a sample may take, as Prism allows it: past it, the schema is too complex to sample. */
const TICKS = 2500;

/** A schema the sampler gave up on (an array of 3000 items, say): answered as a 500 problem, as Prism does. */
export class SchemaTooComplexError extends Error {
  override name = 'SchemaTooComplexError';
}

const copies = new WeakMap<object, unknown>();

/**
 * The schema as objects of its own, apart from the bundle's (made once per schema). The loader shares one
 * object per named schema, so a schema that contains itself is, at its first level, the very object its
 * bundle entry is; the sampler tells recursion by object, and would stop one level above where Prism's copy
 * (inline first, then the bundle's) stops.
 */
function apart(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  let copy = copies.get(schema);
  if (copy === undefined) copies.set(schema, (copy = structuredClone(schema)));
  return copy;
}

/**
 * The body Prism's static mode answers for a schema: a property's `example`, `default`, first of `examples`
 * or `const` when it has one, else "string", 0, false, `[]`-free arrays of one item and every property,
 * optional ones too. `bundle` is the operation's `__bundled__` (where Prism's loader keeps the recursive
 * parts of its schemas, reached by `$ref: '#/__bundled__/…'`).
 * @throws SchemaTooComplexError when the sample would be too large
 * @example sampleStatic({ type: 'object', properties: { name: { type: 'string' } } }) // { name: 'string' }
 */
export function sampleStatic(schema: unknown, bundle?: unknown): unknown {
  // Prism's own copy of the sampler (a dependency of @stoplight/prism-http), so static bodies stay Prism's.
  const { sampler } = prism();
  try {
    const root = bundle === undefined ? schema : apart(schema);
    // A copy: the sampler hands back the contract's own example objects, and bodies are changed later.
    return structuredClone(sampler.sample(root, { ticks: TICKS }, bundle === undefined ? {} : { __bundled__: bundle }));
  } catch (error) {
    if (error instanceof sampler.SchemaSizeExceededError) {
      throw new SchemaTooComplexError('The schema is too complex to generate a body from.', { cause: error });
    }
    throw error;
  }
}
