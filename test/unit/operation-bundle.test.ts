import { describe, expect, it } from 'vitest';
import { bundledSchema, declaredProperties } from '../../mock/schema/operation-bundle.js';

const node = { type: 'object', properties: { name: { type: 'string' }, children: { $ref: '#/__bundled__/Nodes' } } };
const bundle = { Node: node, Alias: { $ref: '#/__bundled__/Node' }, Loop: { $ref: '#/__bundled__/Loop' } };

describe('bundledSchema: the schema a reference into the operation bundle stands for', () => {
  it('follows a reference, and one to a reference', () => {
    expect(bundledSchema({ $ref: '#/__bundled__/Node' }, bundle)).toBe(node);
    expect(bundledSchema({ $ref: '#/__bundled__/Alias' }, bundle)).toBe(node);
  });

  it('gives a schema without a reference as it is', () => {
    expect(bundledSchema(node, undefined)).toBe(node);
  });

  it('gives nothing for a reference that leads nowhere, out of the bundle, or round in a loop', () => {
    expect(bundledSchema({ $ref: '#/__bundled__/Missing' }, bundle)).toBeUndefined();
    expect(bundledSchema({ $ref: '#/components/schemas/Node' }, bundle)).toBeUndefined();
    expect(bundledSchema({ $ref: '#/__bundled__/Loop' }, bundle)).toBeUndefined();
    expect(bundledSchema({ $ref: '#/__bundled__/Node' }, undefined)).toBeUndefined();
  });
});

describe('declaredProperties: the fields a value of a schema may have', () => {
  it('lists its own fields first, then its members’ in order, the first to declare a name giving its schema', () => {
    const schema = {
      properties: { id: { type: 'integer' } },
      allOf: [{ properties: { id: { type: 'string' }, created: { type: 'string' } } }],
      oneOf: [{ $ref: '#/__bundled__/Node' }, { properties: { name: { type: 'number' }, bark: { type: 'boolean' } } }],
    };
    const fields = declaredProperties(schema, bundle);
    expect([...fields.keys()]).toEqual(['id', 'created', 'name', 'children', 'bark']);
    expect(fields.get('id')).toEqual({ type: 'integer' });
    expect(fields.get('name')).toEqual({ type: 'string' });
  });

  it('keeps a field’s own reference for the caller to follow', () => {
    expect(declaredProperties({ $ref: '#/__bundled__/Node' }, bundle).get('children')).toEqual({
      $ref: '#/__bundled__/Nodes',
    });
  });

  it('has no fields for what is not a schema', () => {
    expect(declaredProperties(undefined, bundle).size).toBe(0);
    expect(declaredProperties({ $ref: '#/__bundled__/Missing' }, bundle).size).toBe(0);
  });
});
