// valueFits compiles Prism's check once and calls it directly: it must judge every value as Prism's
// validateAgainstSchema does, recursive schemas through the bundle, formats, patterns and `$id` included.
import { expect, test } from 'vitest';
import { valueFits } from '../../mock/prism/schema-check.js';
import { bodyParts } from '../../mock/prism/prism-modules.js';

const OUTPUT = 1;
const prismFits = (value: unknown, schema: object, bundle?: unknown) =>
  bodyParts.validateAgainstSchema(value, schema, false, OUTPUT, 'body', bundle)._tag === 'None';

const tree = {
  Node: {
    type: 'object',
    properties: { name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/__bundled__/Node' } } },
    required: ['name'],
  },
};

test.each([
  [
    'a recursive schema, a value that fits',
    { $ref: '#/__bundled__/Node' },
    { name: 'a', kids: [{ name: 'b' }] },
    tree,
    true,
  ],
  [
    'a recursive schema, a value deep inside that does not',
    { $ref: '#/__bundled__/Node' },
    { name: 'a', kids: [{ nom: 'b' }] },
    tree,
    false,
  ],
  [
    'a pattern, a value that breaks it',
    { type: 'string', pattern: '^pas_[0-9A-HJKMNP-TV-Z]{26}$' },
    'pas_x',
    undefined,
    false,
  ],
  [
    'a date-time, a value that is one',
    { type: 'string', format: 'date-time' },
    '2026-01-05T09:30:00Z',
    undefined,
    true,
  ],
  ['a date-time, a value that is not', { type: 'string', format: 'date-time' }, '2026-13-05', undefined, false],
  ['no coercion: a number for a string', { type: 'string' }, 3, undefined, false],
  ['a schema with an $id', { $id: 'https://example.com/pin', type: 'string', minLength: 4 }, '12', undefined, false],
  [
    'a draft 2020-12 schema',
    { $schema: 'https://json-schema.org/draft/2020-12/schema', prefixItems: [{ type: 'number' }] },
    ['x'],
    undefined,
    false,
  ],
])('judges as Prism does: %s', (_name, schema, value, bundle, fits) => {
  expect(valueFits(value, schema, bundle)).toBe(fits);
  expect(valueFits(value, schema, bundle)).toBe(prismFits(value, schema, bundle));
  // Asked again, from the check it kept.
  expect(valueFits(value, schema, bundle)).toBe(prismFits(value, schema, bundle));
});
