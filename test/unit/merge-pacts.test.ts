// Two pacts a run wrote for the same parties, joined: no interaction lost, none twice, no description twice.
import { expect, test } from 'vitest';
import { mergePacts } from '../../mock/reports/merge-pacts.js';
import type { Pact, PactInteraction } from '../../mock/reports/pact.js';

const interaction = (description: string, body?: Record<string, unknown>): PactInteraction => {
  const [operation, method] = description.split(/: | /);
  return {
    description,
    request: { method: method!, path: `/${operation}`, ...(body ? { body } : {}) },
    response: { status: 201 },
  };
};

const pact = (interactions: PactInteraction[], leftOut: string[] = []): Pact => ({
  consumer: { name: 'web-app' },
  provider: { name: 'membership' },
  interactions,
  metadata: {
    pactSpecification: { version: '3.0.0' },
    'membership-mock': { interactions: interactions.length, left_out: leftOut },
  },
});

test('keeps the earlier interactions and adds the later ones of a shape it lacks', () => {
  const earlier = pact([interaction('createPass: POST /p → 201', { name: 'Gold' })], ['call-1 GET /x: no operation']);
  const later = pact(
    [
      interaction('createPass: POST /p → 201', { name: 'Silver' }), // the same shape: body fields, status
      interaction('createPass: POST /p → 201', { name: 'Gold', valid_until: null }), // another shape, same words
      interaction('listPasses: GET /p → 201'),
    ],
    ['call-2 GET /y: no operation'],
  );
  const merged = mergePacts(earlier, later);
  expect(merged.interactions.map((i) => [i.description, i.request.body])).toEqual([
    ['createPass: POST /p → 201', { name: 'Gold' }],
    ['createPass: POST /p → 201 #2', { name: 'Gold', valid_until: null }],
    ['listPasses: GET /p → 201', undefined],
  ]);
  expect(merged.metadata['membership-mock']).toEqual({
    interactions: 3,
    left_out: ['call-1 GET /x: no operation', 'call-2 GET /y: no operation'],
  });
});

test('tells form bodies apart by their field names, as JSON bodies are', () => {
  const form = (body: string): PactInteraction => ({
    description: 'login: POST /login → 200',
    request: {
      method: 'POST',
      path: '/login',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    },
    response: { status: 200 },
  });
  const merged = mergePacts(pact([form('user=bob')]), pact([form('user=ann'), form('user=bob&note=hi')]));
  expect(merged.interactions.map((i) => i.request.body)).toEqual(['user=bob', 'user=bob&note=hi']);
});

test('tells operations apart by their whole name, an API-qualified one (a:listItems) included', () => {
  const get = (description: string, path: string): PactInteraction => ({
    description,
    request: { method: 'GET', path },
    response: { status: 200 },
  });
  const merged = mergePacts(
    pact([get('a:listItems: GET /items → 200', '/items')]),
    pact([get('a:getItem: GET /items/{id} → 200', '/items/x1')]),
  );
  expect(merged.interactions.map((i) => i.description)).toEqual([
    'a:listItems: GET /items → 200',
    'a:getItem: GET /items/{id} → 200',
  ]);
});

test('tells answers of one shape in two media types apart, a charset no other media type', () => {
  const report = (mediaType: string, contentType: string): PactInteraction => ({
    description: `getReport: GET /report → 200 ${mediaType}`,
    request: { method: 'GET', path: '/report', headers: { Accept: mediaType } },
    response: { status: 200, headers: { 'Content-Type': contentType } },
  });
  const merged = mergePacts(
    pact([report('application/json', 'application/json')]),
    pact([report('text/csv', 'text/csv'), report('application/json', 'Application/JSON; charset=utf-8')]),
  );
  expect(merged.interactions.map((i) => i.description)).toEqual([
    'getReport: GET /report → 200 application/json',
    'getReport: GET /report → 200 text/csv',
  ]);
});
