import { describe, expect, test } from 'vitest';
import { chooseHint, examplesOf, type Hint } from '../../mock/generate/choose-hint.js';
import { nameHint, snakeCase } from '../../mock/generate/name-hints.js';
import { createSeededFaker } from '../../mock/generate/seeded-faker.js';

const faker = createSeededFaker(new Date('2025-06-01T12:00:00Z'));
const drawOf = (hint: Hint | undefined, seed = 1): unknown => {
  if (!hint || 'pick' in hint) throw new Error(`not a draw: ${JSON.stringify(hint)}`);
  faker.seed(seed);
  return hint.draw(faker);
};
const at = (name: string, siblings: string[] = [], owner?: string) => ({ name, siblings, owner });

describe('nameHint', () => {
  test.each([
    ['first_name', /^[A-Z][a-z'-]+$/],
    ['lastName', /^[A-Z][A-Za-z' -]+$/],
    ['email', /^[^@\s]+@[^@\s]+\.[a-z]+$/],
    ['contact_email', /^[^@\s]+@[^@\s]+\.[a-z]+$/],
    ['phone', /^\+\d{8,15}$/],
    ['mobile_number', /^\+\d{8,15}$/],
    ['city', /^[A-Z]/],
    ['postal_code', /^[0-9A-Z -]{3,10}$/],
    ['website', /^https?:\/\//],
    ['avatar_url', /^https:\/\//],
    ['image_url', /^https:\/\//],
    ['currency', /^[A-Z]{3}$/],
    ['country_code', /^[A-Z]{2}$/],
    ['initials', /^[A-Z]{2}$/],
  ])('%s draws a value that looks like one', (name, shape) => {
    for (let seed = 0; seed < 20; seed++) {
      faker.seed(seed);
      expect(nameHint(at(name))!.draw(faker)).toMatch(shape);
    }
  });

  test.each(['label', 'kind', 'id', 'status_note', 'state'])('%s gives no hint on its own', (name) => {
    expect(nameHint(at(name))).toBeUndefined();
  });

  test('name is a person’s beside person fields or under a person, a company’s under a company, else a guess', () => {
    expect(nameHint(at('name', ['email']))).toMatchObject({ weak: false, role: 'full' });
    expect(nameHint(at('name', [], 'author'))).toMatchObject({ weak: false });
    expect(nameHint(at('name'))).toMatchObject({ weak: true });
    faker.seed(3);
    expect(nameHint(at('name', [], 'publisher'))!.draw(faker)).toMatch(/[A-Z]/);
    expect(nameHint(at('name', [], 'publisher'))).toMatchObject({ weak: false });
  });

  test('title is a job title for a person, else a weak guess; description a weak guess', () => {
    expect(nameHint(at('title', ['first_name']))).toMatchObject({ weak: false });
    expect(nameHint(at('title'))).toMatchObject({ weak: true });
    expect(nameHint(at('description'))).toMatchObject({ weak: true });
  });

  test('state is a state only beside an address', () => {
    expect(nameHint(at('state', ['city', 'postal_code']))).toMatchObject({ weak: false });
  });

  test.each([
    ['firstName', 'first_name'],
    ['avatarURL', 'avatar_url'],
    ['Postal-Code', 'postal_code'],
    ['e.mail', 'e_mail'],
  ])('reads %s as %s', (name, snake) => {
    expect(snakeCase(name)).toBe(snake);
  });
});

describe('chooseHint', () => {
  test('an examples list of two or more that fit is picked from, those that do not fit dropped', () => {
    const hint = chooseHint({ type: 'string', maxLength: 6, examples: ['Gold', 'Silver', 'Platinum'] }, at('name'));
    expect(hint).toEqual({ pick: ['Gold', 'Silver'] });
  });

  test('x-examples (OpenAPI 3.0) win over examples (where Prism puts the one example)', () => {
    const node = { type: 'string', examples: ['Gold membership'], 'x-examples': ['A', 'B'] };
    expect(examplesOf(node)).toEqual(['A', 'B']);
    expect(chooseHint(node, at('name'))).toEqual({ pick: ['A', 'B'] });
  });

  test('numbers and booleans take examples lists too, within their bounds', () => {
    expect(chooseHint({ type: 'integer', minimum: 1, examples: [0, 1, 2, 2.5] })).toEqual({ pick: [1, 2] });
  });

  test.each([
    ['an enum', { type: 'string', enum: ['a', 'b'], examples: ['a', 'b'] }, 'kind'],
    ['a const', { const: 'a', examples: ['a', 'b'] }, 'kind'],
    ['an id', { type: 'string', examples: ['a', 'b'] }, 'member_id'],
    ['a pattern', { type: 'string', pattern: '^[a-z]$', examples: ['a', 'b'] }, 'code'],
    ['an object', { type: 'object', properties: {}, examples: [{}, {}] }, 'owner'],
    ['a plain string named like nothing', { type: 'string' }, 'label'],
  ])('%s gets no hint', (_, node, name) => {
    expect(chooseHint(node, at(name))).toBeUndefined();
  });

  test('x-faker comes first, and its value is used only where it fits the whole schema', () => {
    const name = chooseHint({ type: 'string', 'x-faker': 'person.firstName', examples: ['a', 'b'] }, at('label'));
    expect(drawOf(name)).toMatch(/^[A-Z][a-z'-]+$/);
    // A password is no array of strings, nor an integer: nothing drawn fits, json-schema-faker's value stays.
    const list = chooseHint({ type: 'array', items: { type: 'string' }, 'x-faker': 'internet.password' });
    expect(drawOf(list)).toBeUndefined();
    if (!list || 'pick' in list) throw new Error('expected a draw');
    expect(list.fits('LE4mf0pt90_ZmOC')).toBe(false);
    expect(list.fits(['LE4mf0pt90_ZmOC'])).toBe(true);
    expect(list.fits([1])).toBe(false);
    expect(drawOf(chooseHint({ type: 'integer', 'x-faker': 'internet.password' }))).toBeUndefined();
    // Faker's text for a number schema is its number, as json-schema-faker makes it.
    expect(drawOf(chooseHint({ type: 'number', 'x-faker': 'finance.amount' }))).toEqual(expect.any(Number));
    expect(drawOf(chooseHint({ type: 'string', maxLength: 4, 'x-faker': 'lorem.paragraph' }))).toBeUndefined();
    expect(drawOf(chooseHint({ type: 'string', enum: ['a'], 'x-faker': 'lorem.word' }))).toBeUndefined();
  });

  test('an x-faker that names no faker method (or reaches past faker’s own) gives no hint', () => {
    expect(chooseHint({ type: 'string', 'x-faker': 'constructor.constructor' })).toBeUndefined();
    expect(chooseHint({ type: 'string', 'x-faker': 'person.__proto__' })).toBeUndefined();
    expect(chooseHint({ type: 'string', 'x-faker': 42 })).toBeUndefined();
    expect(drawOf(chooseHint({ type: 'string', 'x-faker': 'person.noSuchThing' }))).toBeUndefined();
    expect(drawOf(chooseHint({ type: 'integer', 'x-faker': { 'number.int': [{ min: 3, max: 3 }] } }))).toBe(3);
  });

  test('examples must fit the whole schema: their format, multipleOf and type too', () => {
    expect(chooseHint({ type: 'string', format: 'date', examples: ['2025-01-02', 'yesterday', '2025-02-03'] })).toEqual(
      { pick: ['2025-01-02', '2025-02-03'] },
    );
    expect(chooseHint({ type: 'integer', multipleOf: 5, examples: [5, 7, 10] })).toEqual({ pick: [5, 10] });
    expect(chooseHint({ type: 'integer', 'x-examples': ['low', 'high'] })).toBeUndefined();
  });

  test('a name hint is for strings only: an email that is an integer gets none', () => {
    expect(chooseHint({ type: 'integer' }, at('email'))).toBeUndefined();
    expect(chooseHint({ type: 'boolean' }, at('first_name'))).toBeUndefined();
  });

  test('a format faker draws better is drawn by faker, whatever the name', () => {
    expect(drawOf(chooseHint({ type: 'string', format: 'email' }, at('contact')))).toMatch(/@/);
    expect(drawOf(chooseHint({ type: 'string', format: 'uri' }, at('homepage')))).toMatch(/^https?:\/\//);
    expect(drawOf(chooseHint({ type: 'string', format: 'uri' }, at('photo')))).toMatch(
      /^https:\/\/(picsum\.photos|loremflickr\.com)\//,
    );
  });

  test('a birth date is 18 to 80 years before the anchor, as a date', () => {
    const born = drawOf(chooseHint({ type: 'string', format: 'date' }, at('birth_date'))) as string;
    expect(born).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const years = 2025 - Number(born.slice(0, 4));
    expect(years).toBeGreaterThanOrEqual(18);
    expect(years).toBeLessThanOrEqual(81);
  });

  test('other formats are json-schema-faker’s (dates from the seed’s anchor, uuids)', () => {
    expect(chooseHint({ type: 'string', format: 'date-time' }, at('created_at'))).toBeUndefined();
    expect(chooseHint({ type: 'string', format: 'uuid' }, at('token'))).toBeUndefined();
  });

  test('a name that is sure wins over the one example; the example wins over a guess', () => {
    expect(chooseHint({ type: 'string', examples: ['x@y.io'] }, at('email'))).toHaveProperty('draw');
    expect(chooseHint({ type: 'string', examples: ['Not found'] }, at('title'))).toEqual({ pick: ['Not found'] });
    expect(chooseHint({ type: 'string' }, at('title'))).toHaveProperty('draw');
  });

  test('the one example of a plain string is used: it reads better than random letters', () => {
    expect(chooseHint({ type: 'string', maxLength: 100, examples: ['Front desk PIN'] }, at('label'))).toEqual({
      pick: ['Front desk PIN'],
    });
  });

  test('a draw fits the schema’s lengths, or it is not used', () => {
    const hint = chooseHint({ type: 'string', maxLength: 3 }, at('first_name'));
    if (!hint || 'pick' in hint) throw new Error('expected a draw');
    expect(hint.fits('Amy')).toBe(true);
    expect(hint.fits('Christopher')).toBe(false);
    const admin = chooseHint({ type: 'string', format: 'email', pattern: '^admin@' }, at('contact'));
    if (!admin || 'pick' in admin) throw new Error('expected a draw');
    expect(admin.fits('sam@example.com')).toBe(false);
    expect(admin.fits('admin@example.com')).toBe(true);
  });

  test('a draw is checked against the pattern in linear time: a backtracking pattern cannot stall generation', () => {
    // The classic email pattern that backtracks exponentially on a long local part that does not end well.
    const email = chooseHint({ type: 'string', format: 'email', pattern: String.raw`^([a-zA-Z0-9_.-]+)*@x\.io$` });
    if (!email || 'pick' in email) throw new Error('expected a draw');
    expect(email.fits(`${'a'.repeat(5000)}!`)).toBe(false);
    expect(email.fits('ann@x.io')).toBe(true);
  });
});
