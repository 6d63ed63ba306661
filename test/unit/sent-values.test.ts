import { describe, expect, test } from 'vitest';
import { withoutWriteOnly } from '../../mock/state/sent-values.js';

const LOGIN = {
  type: 'object',
  properties: { user: { type: 'string' }, password: { type: 'string', writeOnly: true } },
};

describe('withoutWriteOnly', () => {
  test('gives the value itself, uncopied, when the schema marks nothing write-only', () => {
    const value = { user: 'a', password: 'p' };
    expect(withoutWriteOnly(value, { type: 'object', properties: { user: { type: 'string' } } })).toBe(value);
  });

  test('leaves out a write-only field inside an object and inside an array’s items, and copies only those', () => {
    const schema = { type: 'object', properties: { owner: LOGIN, logins: { type: 'array', items: LOGIN }, tag: {} } };
    const tag = { keep: true };
    const value = { owner: { user: 'a', password: 'p' }, logins: [{ user: 'b' }, { user: 'c', password: 'q' }], tag };
    const kept = withoutWriteOnly(value, schema) as typeof value;
    expect(kept).toEqual({ owner: { user: 'a' }, logins: [{ user: 'b' }, { user: 'c' }], tag });
    expect(kept.tag).toBe(tag);
    expect(kept.logins[0]).toBe(value.logins[0]);
    expect(value.owner).toEqual({ user: 'a', password: 'p' });
  });

  test('reads the fields of kinds (oneOf), and follows references into the bundle', () => {
    const bundle = { Login: LOGIN };
    const schema = {
      type: 'object',
      properties: { who: { oneOf: [{ $ref: '#/__bundled__/Login' }, { type: 'string' }] } },
    };
    expect(withoutWriteOnly({ who: { user: 'a', password: 'p' } }, schema, bundle)).toEqual({ who: { user: 'a' } });
    expect(withoutWriteOnly({ who: 'a' }, schema, bundle)).toEqual({ who: 'a' });
  });

  test('merges allOf before it reads the fields', () => {
    const schema = { allOf: [{ type: 'object', properties: { name: { type: 'string' } } }, LOGIN] };
    expect(withoutWriteOnly({ name: 'n', password: 'p' }, schema)).toEqual({ name: 'n' });
  });

  test('stops 64 levels down: deeper values are kept as sent', () => {
    const bundle: Record<string, unknown> = {
      Node: { type: 'object', properties: { secret: { writeOnly: true }, child: { $ref: '#/__bundled__/Node' } } },
    };
    let deep: Record<string, unknown> = { secret: 's' };
    for (let i = 0; i < 70; i++) deep = { child: deep };
    const kept = withoutWriteOnly({ secret: 'top', child: deep }, { $ref: '#/__bundled__/Node' }, bundle);
    expect(JSON.stringify(kept)).not.toMatch(/top/);
    expect(JSON.stringify(kept)).toMatch(/"secret":"s"/);
  });
});
