import { describe, expect, test } from 'vitest';
import { markHints, type ObjectRule } from '../../mock/generate/mark-hints.js';

describe('markHints', () => {
  test('a schema with nothing to hint gets no marks, so its draws pay for no second look', () => {
    const plain = {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^x_[a-z]{4}$' },
        count: { type: 'integer' },
        kind: { type: 'string', enum: ['a', 'b'] },
        at: { type: 'string', format: 'date-time' },
        reference: { type: 'string' },
      },
    };
    expect(markHints(plain)).toBeUndefined();
  });

  test('items take the singular of their array’s name, and parts of allOf the name of their property', () => {
    const emails = { type: 'string' };
    const city = { type: 'string' };
    const schema = {
      type: 'object',
      properties: {
        emails: { type: 'array', items: emails },
        home: { allOf: [{ type: 'object', properties: { city } }] },
      },
    };
    const marks = markHints(schema)!;
    expect(marks.values.get(emails)).toHaveProperty('draw');
    expect(marks.values.get(city)).toHaveProperty('draw');
  });

  test('examples that name the values of an enum beside them are tied to it', () => {
    const schema = {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['pin', 'card', 'mobile'] },
        label: { type: 'string', examples: ['Side gate PIN', 'Front desk card', 'Spare card', 'Old one'] },
      },
    };
    const [rule] = markHints(schema)!.objects.get(schema)! as Extract<ObjectRule, { tie: string }>[];
    expect(rule!.tie).toBe('label');
    expect(rule!.by).toBe('kind');
    expect(Object.fromEntries(rule!.naming)).toEqual({
      pin: ['Side gate PIN'],
      card: ['Front desk card', 'Spare card'],
    });
    expect(rule!.neutral).toEqual(['Old one']);
  });

  test('a word inside another word names nothing (“pinewood” is no pin)', () => {
    const schema = {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['pin'] },
        label: { type: 'string', examples: ['Pinewood gate', 'Spinning room'] },
      },
    };
    expect(markHints(schema)!.objects.get(schema)).toBeUndefined();
  });

  test('an object with names and an email is ruled to make the email from the names', () => {
    const schema = {
      type: 'object',
      properties: { first_name: { type: 'string' }, last_name: { type: 'string' }, email: { type: 'string' } },
    };
    expect(markHints(schema)!.objects.get(schema)).toEqual([
      expect.objectContaining({ person: { first: ['first_name'], last: ['last_name'], email: ['email'] } }),
    ]);
  });
});
