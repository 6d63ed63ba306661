import { describe, expect, test } from 'vitest';
import { eachSchemaNode, isNullable, isObject, propertiesOf } from '../../mock/schema/schema-facts.js';

describe('isObject', () => {
  test.each([
    [{}, true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    [undefined, false],
    ['{}', false],
    [1, false],
  ])('takes %j for an object: %s', (value, expected) => {
    expect(isObject(value)).toBe(expected);
  });
});

describe('isNullable', () => {
  test.each([
    [{ type: 'string', nullable: true }, true],
    [{ type: ['string', 'null'] }, true],
    [{ type: 'string' }, false],
    [{ type: 'null' }, false],
    [{ type: 'string', nullable: 'true' }, false],
    [{ type: ['string'] }, false],
    [null, false],
    [[{ nullable: true }], false],
  ])('takes %j as nullable: %s', (schema, expected) => {
    expect(isNullable(schema)).toBe(expected);
  });
});

describe('propertiesOf', () => {
  test('returns the properties of an object schema', () => {
    const properties = { id: { type: 'string' } };
    expect(propertiesOf({ type: 'object', properties })).toBe(properties);
  });

  test.each([[{ type: 'object' }], [{ properties: [] }], [{ properties: null }], [null], ['schema']])(
    'returns no properties for %j',
    (schema) => {
      expect(propertiesOf(schema)).toEqual({});
    },
  );
});

describe('eachSchemaNode', () => {
  test('hands every schema object over once, a property named like a keyword included, and lets it be changed', () => {
    const shared = { type: 'string', 'x-examples': ['a'] };
    const schema = {
      type: 'object',
      properties: {
        items: shared,
        list: { type: 'array', items: shared },
        pick: { anyOf: [shared, { type: 'null' }] },
      },
      example: { type: 'not a schema' },
    };
    const seen: unknown[] = [];
    eachSchemaNode(schema, (node) => {
      seen.push(node);
      delete node['x-examples'];
    });
    expect(seen).toHaveLength(5);
    expect(shared).toEqual({ type: 'string' });
    expect(schema.example).toEqual({ type: 'not a schema' });
  });
});
