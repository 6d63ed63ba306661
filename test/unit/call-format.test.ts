// How the inspector sums up a call's status in a row: who answered shows beside the status.
import { describe, expect, test } from 'vitest';

const moduleUrl = new URL('../../mock/inspector/assets/call-format.js', import.meta.url).href;
const { describeStatus } = (await import(moduleUrl)) as { describeStatus: (call: object) => string };

const call = (extra: object) => ({ response: { status: 200 }, answeredBy: 'mock', ...extra });

describe('describeStatus', () => {
  test.each([
    [call({}), '200'],
    [call({ answeredBy: 'proxy' }), '200 (backend)'],
    [call({ answeredBy: 'fallback' }), '200 (mock for the backend)'],
    [call({ answeredBy: 'override' }), '200'],
    [call({ fault: 'failure', response: { status: 500 } }), '500 (injected)'],
    [call({ fault: 'drop', response: { status: 0 } }), 'dropped: no answer'],
  ])('%j reads %s', (given, shown) => {
    expect(describeStatus(given)).toBe(shown);
  });
});
