import { describe, expect, test } from 'vitest';
import { describeViolations, problem, PROBLEMS, type Violation } from '../../mock/http/problems.js';

describe('PROBLEMS', () => {
  test.each([
    ['invalidRequest', 400],
    ['malformedJson', 400],
    ['missingBody', 400],
    ['unknownCursor', 400],
    ['invalidPrefer', 400],
    ['malformedHttp', 400],
    ['unauthorized', 401],
    ['forbiddenOrigin', 403],
    ['forbiddenHost', 403],
    ['forgeableAdminRequest', 403],
    ['notFound', 404],
    ['routeNotFound', 404],
    ['methodNotAllowed', 405],
    ['notAcceptable', 406],
    ['waitTimedOut', 408],
    ['tooManyOverrides', 409],
    ['sessionDropped', 410],
    ['payloadTooLarge', 413],
    ['unsupportedMediaType', 415],
    ['invalidOverride', 422],
    ['invalidBody', 422],
    ['tooManyWaits', 429],
    ['headersTooLarge', 431],
    ['internal', 500],
    ['storageFull', 507],
  ] as const)('answers %s with status %i', (kind, status) => {
    expect(problem(kind, 'detail').status).toBe(status);
  });

  test('gives every kind its own type URI, named after the kind', () => {
    for (const [kind, { type }] of Object.entries(PROBLEMS)) {
      const slug = kind.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      expect(type).toBe(`https://example.com/problems/${slug}`);
    }
  });

  test('gives every kind a title of its own', () => {
    const titles = Object.values(PROBLEMS).map((p) => p.title);
    expect(titles.every((title) => title.length > 0)).toBe(true);
    expect(new Set(titles).size).toBe(titles.length);
  });
});

describe('problem', () => {
  test('builds the template with the detail and no optional member', () => {
    expect(problem('notFound', 'No pass p1.')).toEqual({ ...PROBLEMS.notFound, detail: 'No pass p1.' });
    expect(problem('notFound', 'No pass p1.')).not.toHaveProperty('instance');
    expect(problem('notFound', 'No pass p1.')).not.toHaveProperty('violations');
  });

  test('adds the instance and the violations it is given', () => {
    const violations: Violation[] = [{ location: 'body', pointer: '/kind', message: 'must be one of gym, pool' }];
    expect(problem('invalidBody', 'Bad.', { instance: '/members/m1', violations })).toEqual({
      ...PROBLEMS.invalidBody,
      detail: 'Bad.',
      instance: '/members/m1',
      violations,
    });
  });

  const violation = (pointer: string, message: string): Violation[] => [{ location: 'body', pointer, message }];
  test.each([
    ['detail', 2000, (text: string) => problem('internal', text).detail],
    ['instance', 2000, (text: string) => problem('internal', 'd', { instance: text }).instance],
    [
      'violation pointer',
      500,
      (text: string) => problem('internal', 'd', { violations: violation(text, 'm') }).violations?.[0]?.pointer,
    ],
    [
      'violation message',
      1000,
      (text: string) => problem('internal', 'd', { violations: violation('/', text) }).violations?.[0]?.message,
    ],
  ])('keeps a %s of up to %i characters and cuts a longer one with an ellipsis', (_, max, build) => {
    expect(build('x'.repeat(max))).toBe('x'.repeat(max));
    expect(build('x'.repeat(max + 1))).toBe(`${'x'.repeat(max - 1)}…`);
  });

  test('keeps the first 100 violations of a longer list', () => {
    const violations = Array.from({ length: 150 }, (_, i): Violation => ({
      location: 'query',
      pointer: `/p${i}`,
      message: 'unknown',
    }));
    const kept = problem('invalidRequest', 'd', { violations }).violations ?? [];
    expect(kept.map((v) => v.pointer)).toEqual(violations.slice(0, 100).map((v) => v.pointer));
  });

  test('keeps only the location, pointer and message of a violation', () => {
    const violation = { location: 'header', pointer: '/x-id', message: 'required', secret: 'no' } as Violation;
    expect(problem('invalidRequest', 'd', { violations: [violation] }).violations).toEqual([
      { location: 'header', pointer: '/x-id', message: 'required' },
    ]);
  });
});

describe('describeViolations', () => {
  test('writes one "location pointer: message" part per violation, joined with semicolons', () => {
    expect(
      describeViolations([
        { location: 'body', pointer: '/kind', message: 'must be one of gym, pool' },
        { location: 'query', pointer: '/limit', message: 'must be >= 1' },
      ]),
    ).toBe('body /kind: must be one of gym, pool; query /limit: must be >= 1');
  });

  test('names an empty pointer as the root', () => {
    expect(describeViolations([{ location: 'body', pointer: '', message: 'must be object' }])).toBe(
      'body (root): must be object',
    );
  });

  test('is empty without violations', () => {
    expect(describeViolations([])).toBe('');
  });
});
