// Every ajv instance Prism validates with (three drafts, with and without coercion) matches contract patterns
// in linear time: the loader gives them the engine (see mock/node/prism-modules.ts).
import { describe, expect, test } from 'vitest';
import { bodyParts, createSchemaCompiler } from '../../mock/prism/prism-modules.js';

const PATTERN = String.raw`^(\w+\s?)*$`;
/** 2^5000 steps for a backtracking engine: a test that finishes ran on another. */
const HOSTILE = `${'a'.repeat(5000)}!`;
const DRAFTS = {
  default: undefined,
  draft2019_09: 'https://json-schema.org/draft/2019-09/schema',
  draft2020_12: 'https://json-schema.org/draft/2020-12/schema',
} as const;

describe("Prism's validation matches patterns in linear time", () => {
  test.each(
    Object.entries(DRAFTS).flatMap(([draft, $schema]) => [true, false].map((coerce) => [draft, coerce, $schema])),
  )('the %s instance (coercing: %s)', (_draft, coerce, $schema) => {
    const schema = { type: 'string', pattern: PATTERN, ...($schema ? { $schema } : {}) };
    const found = bodyParts.validateAgainstSchema(HOSTILE, schema, coerce as boolean, 0, 'query', undefined);
    expect(found._tag === 'Some' && found.value.map((d) => d.code)).toEqual(['pattern']);
    expect(bodyParts.validateAgainstSchema('two words', schema, coerce as boolean, 0, 'query', undefined)._tag).toBe(
      'None',
    );
  });

  test.each(Object.keys(DRAFTS))("and so does the mock's own %s compiler", (draft) => {
    const check = createSchemaCompiler(draft as keyof typeof DRAFTS).compile({
      type: 'object',
      patternProperties: { [PATTERN]: { type: 'string', pattern: PATTERN } },
    });
    expect(check({ 'two words': HOSTILE })).toBe(false);
    expect(check({ 'two words': 'fine' })).toBe(true);
  });
});
