import { describe, expect, test } from 'vitest';
import { FULL_DEPTH, pruneAll, pruneDeep } from '../../mock/generate/prune-deep.js';

/** An object schema `levels` deep, each level with a required `next` and an optional `note`. */
function nested(levels: number, leaf: object = { type: 'string' }): object {
  let schema = leaf;
  for (let i = 0; i < levels; i++)
    schema = { type: 'object', required: ['next'], properties: { next: schema, note: { type: 'string' } } };
  return schema;
}

/** The schema `steps` levels down, following `next`. */
function down(schema: unknown, steps: number): Record<string, any> {
  let node = schema as Record<string, any>;
  for (let i = 0; i < steps; i++) node = node.properties.next;
  return node;
}

describe('pruneDeep', () => {
  test('keeps optional properties above the full depth and drops them from it down, keeping required ones', () => {
    const pruned = pruneDeep(nested(FULL_DEPTH + 3));
    expect(Object.keys(down(pruned, FULL_DEPTH - 1).properties)).toEqual(['next', 'note']);
    expect(Object.keys(down(pruned, FULL_DEPTH).properties)).toEqual(['next']);
    expect(down(pruned, FULL_DEPTH + 3)).toEqual({ type: 'string' });
  });

  test('a property required beside an allOf is kept in the part that defines it', () => {
    const part = { type: 'object', properties: { id: { type: 'string' }, extra: { type: 'string' } } };
    const deep = nested(FULL_DEPTH, { allOf: [part], required: ['id'] });
    const leaf = down(pruneDeep(deep), FULL_DEPTH);
    expect(Object.keys(leaf.allOf[0].properties)).toEqual(['id']);
  });

  test('lists from the full depth down have at most one item beyond their minimum', () => {
    const leaf = down(
      pruneDeep(nested(FULL_DEPTH, { type: 'array', items: { type: 'string' }, minItems: 2 })),
      FULL_DEPTH,
    );
    expect(leaf.maxItems).toBe(3);
  });

  test('does not change the schema it is given', () => {
    const schema = nested(FULL_DEPTH + 1);
    const copy = structuredClone(schema);
    pruneDeep(schema);
    expect(schema).toEqual(copy);
  });
});

describe('pruneAll', () => {
  test('keeps only required properties from the top: a recursive part stops where the schema lets it', () => {
    const node = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, children: {} } };
    expect(pruneAll(node)).toEqual({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } });
  });
});
