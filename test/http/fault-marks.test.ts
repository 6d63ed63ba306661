// Faults the mock injects are marked in the journal (`fault`) and on the request's log line, so a dropped
// connection never reads as a status-0 answer and an injected 500 never as one the request earned.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import type { MockOptions } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

/** A mock logging JSON into `lines`, parsed. */
async function loggedMock(options: MockOptions = {}) {
  const lines: Record<string, unknown>[] = [];
  const mock = await newMock({ ...options, log: 'json', logTo: (line) => lines.push(JSON.parse(line)) });
  return { mock, lines };
}

/** Sends a GET whose connection the mock may close: resolves with the status, or 0 for no answer. */
async function statusOf(app: Parameters<typeof request>[0], path: string, headers = AUTH): Promise<number> {
  try {
    return (await request(app).get(path).set(headers)).status;
  } catch {
    return 0;
  }
}

/** Resolves once the mock has written `count` lines (a drop's line comes as the connection closes). */
async function lineCount(lines: unknown[], count: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (lines.length < count) {
    if (Date.now() > deadline) throw new Error(`only ${lines.length} of ${count} log lines were written`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('a dropped connection', () => {
  test.each([
    ['an override', {}, true],
    ['--drop-rate', { faults: { dropRate: 1 } }, false],
  ] as const)('from %s is journaled as no answer sent, and logged with no status', async (_, options, override) => {
    const { mock, lines } = await loggedMock(options);
    if (override) mock.override({ operationId: 'listPasses', fault: 'drop' });
    expect(await statusOf(mock.app, '/members/m1/passes')).toBe(0);
    const [call] = mock.calls();
    expect(call).toMatchObject({ operationId: 'listPasses', fault: 'drop', response: { status: 0, headers: {} } });
    await lineCount(lines, 1);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', operationId: 'listPasses', status: null, fault: 'drop' }),
    ]);
  });
});

describe('an injected failure', () => {
  test('is marked failure, where a 500 the request asks for is not', async () => {
    const { mock, lines } = await loggedMock({ faults: { failureRate: 1 } });
    expect(await statusOf(mock.app, '/members/m1/passes')).toBe(500);
    const asked = await loggedMock();
    await request(asked.mock.app).get('/members/m1/passes').set(AUTH).set('Prefer', 'code=500').expect(500);
    expect(mock.calls()[0]!.fault).toBe('failure');
    expect(lines[0]).toMatchObject({ status: 500, fault: 'failure' });
    expect(asked.mock.calls()[0]).not.toHaveProperty('fault');
    expect(asked.lines[0]).not.toHaveProperty('fault');
  });

  test('where the contract documents no 5xx is marked failure too', async () => {
    const { mock } = await loggedMock({ faults: { failureRate: 1 } });
    // deletePass documents no 5xx: the mock answers its own 500 problem.
    await request(mock.app).delete('/members/m1/passes/p1').set(AUTH).expect(500);
    expect(mock.calls()[0]).toMatchObject({ fault: 'failure', response: { status: 500 } });
  });

  test('held back by latency too is marked failure, the more telling of the two', async () => {
    const { mock } = await loggedMock({ faults: { failureRate: 1, latency: 1 } });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(500);
    expect(mock.calls()[0]!.fault).toBe('failure');
  });
});

describe('a held-back answer', () => {
  test('from the faults is marked latency', async () => {
    const { mock, lines } = await loggedMock({ faults: { latency: 1 } });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(mock.calls()[0]).toMatchObject({ fault: 'latency', response: { status: 200 } });
    expect(lines[0]).toMatchObject({ status: 200, fault: 'latency' });
  });

  test("from an override's delay is marked latency", async () => {
    const { mock } = await loggedMock();
    mock.override({ operationId: 'listPasses', delay: 1 });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(mock.calls()[0]!.fault).toBe('latency');
  });

  test('that the request asks for (Prefer: delay=) is no fault', async () => {
    const { mock, lines } = await loggedMock({ faults: { latency: 1 } });
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('Prefer', 'delay=1').expect(200);
    expect(mock.calls()[0]).not.toHaveProperty('fault');
    expect(lines[0]).not.toHaveProperty('fault');
  });
});

test('an answer no fault touched carries no fault, in the journal or the log', async () => {
  const { mock, lines } = await loggedMock();
  await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  expect(mock.calls()[0]).not.toHaveProperty('fault');
  expect(lines[0]).not.toHaveProperty('fault');
});

test('the pretty line names the fault', async () => {
  const lines: string[] = [];
  const mock = await newMock({ log: 'pretty', logTo: (line) => lines.push(line), faults: { failureRate: 1 } });
  await request(mock.app).get('/members/m1/passes').set(AUTH).expect(500);
  expect(lines[0]).toMatch(/^GET \/members\/m1\/passes listPasses 500 \S+ms [0-9a-f-]{36} \[fault: failure\]$/);
});

describe('faults set in-process', () => {
  test('setFaults injects failures from the next call, clearFaults stops them, and a bad spec is refused', async () => {
    const mock = await newMock();
    mock.setFaults({ failureRate: 1 });
    expect(await statusOf(mock.app, '/members/m1/passes')).toBeGreaterThanOrEqual(500);
    mock.clearFaults();
    expect(await statusOf(mock.app, '/members/m1/passes')).toBe(200);
    expect(mock.calls({ operationId: 'listPasses' }).map((c) => c.fault)).toEqual(['failure', undefined]);
    expect(() => mock.setFaults({ failureRate: 2 })).toThrow(/setFaults\(\): .*failureRate/);
  });
});
