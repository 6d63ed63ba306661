import { describe, expect, test } from 'vitest';
import { recordFits, sameSchema } from '../../mock/schema/record-fit.js';
import { mergedSchema, valueFits } from '../../mock/prism/schema-check.js';
import type { JsonObject } from '../../mock/schema/schema-facts.js';

const RECORD: JsonObject = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, note: { type: 'string' } },
};

describe('sameSchema', () => {
  test('leaves out descriptions, examples and x- extensions, and the order of keys', () => {
    const a = { type: 'string', description: 'a', example: 'x', 'x-faker': 'person.firstName', maxLength: 5 };
    expect(sameSchema(a, { maxLength: 5, type: 'string' })).toBe(true);
  });

  test('tells apart properties named like annotations', () => {
    const a = { type: 'object', properties: { title: { type: 'string' } } };
    expect(sameSchema(a, { type: 'object', properties: { title: { type: 'integer' } } })).toBe(false);
  });

  test('tells apart schemas that accept other values', () => {
    expect(sameSchema({ type: 'string' }, { type: 'string', format: 'uuid' })).toBe(false);
  });
});

describe('recordFits', () => {
  test.each<[string, JsonObject, boolean]>([
    ['the same schema', RECORD, true],
    [
      'a summary of some fields declared alike',
      { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      true,
    ],
    [
      'a schema requiring a field the record only may have',
      { type: 'object', required: ['note'], properties: { note: { type: 'string' } } },
      false,
    ],
    ['a schema declaring a field otherwise', { type: 'object', properties: { id: { type: 'integer' } } }, false],
    [
      'a schema with a field the record has not',
      { type: 'object', properties: { id: { type: 'string' }, score: { type: 'integer' } } },
      false,
    ],
    [
      'a closed schema without some of the record’s fields',
      { type: 'object', additionalProperties: false, properties: { id: { type: 'string' } } },
      false,
    ],
    ['a string', { type: 'string' }, false],
    ['an object schema with no properties', { type: 'object' }, false],
  ])('holds the records for %s: %s', (_, target, fits) => {
    expect(recordFits(target, RECORD)).toBe(fits);
  });
});

describe('mergedSchema', () => {
  test('merges allOf into one object schema, and hands out the same merge for the same schema', () => {
    const schema = { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { properties: { b: {} } }] };
    const merged = mergedSchema(schema) as JsonObject;
    expect(Object.keys(merged.properties as JsonObject)).toEqual(['a', 'b']);
    expect(mergedSchema(schema)).toBe(merged);
  });

  test('is the schema itself when it has no allOf', () => {
    expect(mergedSchema(RECORD)).toBe(RECORD);
  });
});

describe('valueFits', () => {
  test('checks a value as a response is checked, without coercion', () => {
    expect(valueFits('7', { type: 'integer' })).toBe(false);
    expect(valueFits(7, { type: 'integer' })).toBe(true);
  });
});
