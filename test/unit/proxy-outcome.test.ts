import { describe, expect, test } from 'vitest';
import type { CallRecord } from '../../mock/journal/journal.js';
import { proxyOutcome } from '../../mock/reports/metrics.js';

const PROBLEM = { 'content-type': 'application/problem+json' };
const problemOf = (slug: string) => ({ type: `https://example.com/problems/${slug}`, title: 't', status: 500 });

/** A call as the journal hands it to listeners: who answered, and the answer. */
function call(answeredBy: CallRecord['answeredBy'], status: number, headers = {}, body?: unknown): CallRecord {
  return { answeredBy, response: { status, headers, body } } as CallRecord;
}

describe('proxyOutcome', () => {
  test.each([
    ['an answer the upstream gave', call('proxy', 200, { 'content-type': 'application/json' }, {}), 'forwarded'],
    [
      'an upstream 502 passed on',
      call('proxy', 502, { 'content-type': 'text/html' }, '<h1>bad gateway</h1>'),
      'forwarded',
    ],
    ['an upstream problem of its own type', call('proxy', 502, PROBLEM, problemOf('bad-gateway')), 'forwarded'],
    ['the mock in the upstream’s place', call('fallback', 201, {}, {}), 'fallback'],
    ['no answer from the upstream', call('proxy', 502, PROBLEM, problemOf('upstream-unreachable')), 'upstream_error'],
    ['an upstream too slow', call('proxy', 504, PROBLEM, problemOf('upstream-timeout')), 'upstream_error'],
    [
      'an answer breaking the contract',
      call('proxy', 500, PROBLEM, problemOf('invalid-upstream-answer')),
      'upstream_error',
    ],
    [
      'a GET with a body, refused before forwarding',
      call('proxy', 501, PROBLEM, problemOf('body-not-forwarded')),
      undefined,
    ],
    ['an answer of the mock alone', call('mock', 200), undefined],
    ['an override', call('override', 500, PROBLEM, problemOf('upstream-timeout')), undefined],
  ])('%s', (_, record, outcome) => {
    expect(proxyOutcome(record)).toBe(outcome);
  });
});
