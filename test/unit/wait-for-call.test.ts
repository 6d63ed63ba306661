import { afterEach, describe, expect, test, vi } from 'vitest';
import { Journal, JournalClosedError, type CallRecord, type NewCall } from '../../mock/journal/journal.js';
import { nearMisses, waitForCall, waitTimeout } from '../../mock/journal/wait-for-call.js';

const call = (operationId: string | null, path: string, status = 200): NewCall => ({
  operationId,
  method: 'GET',
  path,
  pathParams: {},
  query: {},
  headers: {},
  response: { status, headers: {} },
  violations: [],
});

/** A matcher that throws, as an asymmetric matcher with a bug would. */
const broken = {
  asymmetricMatch: () => {
    throw new TypeError('a broken matcher');
  },
};

afterEach(() => {
  vi.useRealTimers();
});

describe('waitForCall', () => {
  test('resolves at once with a call already recorded that matches', async () => {
    const journal = new Journal(10);
    journal.record(call('listPasses', '/passes'));
    journal.record(call('getPass', '/passes/p1'));
    await expect(waitForCall(journal, { operationId: 'getPass' })).resolves.toMatchObject({
      id: 'call-2',
      path: '/passes/p1',
    });
  });

  test('resolves with the first matching call that arrives, as a copy', async () => {
    const journal = new Journal(10);
    const waiting = waitForCall(journal, { path: '/passes/p2' });
    journal.record(call('getPass', '/passes/p1'));
    journal.record(call('getPass', '/passes/p2'));
    journal.record(call('getPass', '/passes/p2'));
    const found = await waiting;
    expect(found).toMatchObject({ id: 'call-2', path: '/passes/p2' });
    found!.path = '/changed';
    expect(journal.list()[1]!.path).toBe('/passes/p2');
  });

  test('stops listening once it has its call', async () => {
    const journal = new Journal(10);
    const waiting = waitForCall(journal, { operationId: 'getPass' });
    expect(journal.waiters).toBe(1);
    journal.record(call('getPass', '/passes/p1'));
    await waiting;
    expect(journal.waiters).toBe(0);
  });

  test('counts only calls after the one named in since', async () => {
    const journal = new Journal(10);
    journal.record(call('getPass', '/passes/p1'));
    journal.record(call('getPass', '/passes/p2'));
    journal.record(call('getPass', '/passes/p3'));
    await expect(waitForCall(journal, { operationId: 'getPass' }, { since: 'call-2' })).resolves.toMatchObject({
      id: 'call-3',
    });
  });

  test('waits for a call after since even when earlier ones match', async () => {
    vi.useFakeTimers();
    const journal = new Journal(10);
    journal.record(call('getPass', '/passes/p1'));
    const waiting = waitForCall(journal, { operationId: 'getPass' }, { since: 'call-1', timeout: 100 });
    vi.advanceTimersByTime(100);
    await expect(waiting).resolves.toBeUndefined();
  });

  test.each(['p1', 'call-', 'call-2x', 'xcall-2', 'call-two'])(
    'takes a since of %j, which names no call, as every call',
    async (since) => {
      const journal = new Journal(10);
      journal.record(call('getPass', '/passes/p1'));
      journal.record(call('getPass', '/passes/p2'));
      await expect(waitForCall(journal, { operationId: 'getPass' }, { since })).resolves.toMatchObject({
        id: 'call-1',
      });
    },
  );

  test('reads a since with a number of several digits', async () => {
    const journal = new Journal(20);
    for (let i = 1; i <= 12; i++) journal.record(call('getPass', `/passes/p${i}`));
    await expect(waitForCall(journal, { operationId: 'getPass' }, { since: 'call-11' })).resolves.toMatchObject({
      id: 'call-12',
    });
  });

  test('resolves with undefined after 5 seconds by default, and stops listening', async () => {
    vi.useFakeTimers();
    const journal = new Journal(10);
    let settled = false;
    const waiting = waitForCall(journal, { operationId: 'getPass' }).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(4999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(waiting).resolves.toBeUndefined();
    expect(journal.waiters).toBe(0);
  });

  test('gives up after the timeout it is given', async () => {
    vi.useFakeTimers();
    const journal = new Journal(10);
    const waiting = waitForCall(journal, { operationId: 'getPass' }, { timeout: 200 });
    journal.record(call('listPasses', '/passes'));
    vi.advanceTimersByTime(200);
    await expect(waiting).resolves.toBeUndefined();
  });

  test('clears its timer once a call arrives', async () => {
    vi.useFakeTimers();
    const journal = new Journal(10);
    const waiting = waitForCall(journal, { operationId: 'getPass' });
    journal.record(call('getPass', '/passes/p1'));
    await waiting;
    expect(vi.getTimerCount()).toBe(0);
  });

  test('rejects with the error of a matcher that throws on a call already recorded', async () => {
    const journal = new Journal(10);
    journal.record(call('getPass', '/passes/p1'));
    await expect(waitForCall(journal, { body: broken })).rejects.toThrow('a broken matcher');
  });

  test('rejects with the error of a matcher that throws on a call that arrives, and stops waiting', async () => {
    vi.useFakeTimers();
    const journal = new Journal(10);
    const waiting = waitForCall(journal, { body: broken });
    journal.record(call('getPass', '/passes/p1'));
    await expect(waiting).rejects.toThrow('a broken matcher');
    expect(journal.waiters).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('waitForCall ends early', () => {
  test('rejects with the reason of a signal that aborts, and stops listening', async () => {
    vi.useFakeTimers();
    const journal = new Journal(10);
    const left = new AbortController();
    const waiting = waitForCall(journal, { operationId: 'getPass' }, { signal: left.signal });
    expect(journal.waiters).toBe(1);
    left.abort(new Error('the client left'));
    await expect(waiting).rejects.toThrow('the client left');
    expect(journal.waiters).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('rejects at once with a signal already aborted', async () => {
    const journal = new Journal(10);
    journal.record(call('getPass', '/passes/p1'));
    const waiting = waitForCall(journal, { operationId: 'getPass' }, { signal: AbortSignal.abort(new Error('gone')) });
    await expect(waiting).rejects.toThrow('gone');
  });

  test('rejects with JournalClosedError when its journal is closed (its session dropped)', async () => {
    vi.useFakeTimers();
    const journal = new Journal(10);
    const waiting = waitForCall(journal, { operationId: 'getPass' });
    journal.close();
    await expect(waiting).rejects.toBeInstanceOf(JournalClosedError);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('waits ended by the same call share one copy of it', async () => {
    const journal = new Journal(10);
    const one = waitForCall(journal, { operationId: 'getPass' });
    const two = waitForCall(journal, { path: '/passes/p1' });
    journal.record(call('getPass', '/passes/p1'));
    const [a, b] = await Promise.all([one, two]);
    expect(a).toBe(b);
    expect(a).toMatchObject({ id: 'call-1' });
  });
});

describe('nearMisses', () => {
  const record = (id: number, c: NewCall): CallRecord => ({
    id: `call-${id}`,
    time: '2026-01-01T00:00:00Z',
    ...c,
    answeredBy: c.answeredBy ?? 'mock',
  });
  const calls = [
    record(1, call('listPasses', '/passes', 200)),
    record(2, call('getPass', '/passes/p1', 404)),
    record(3, call('getPass', '/passes/p2', 200)),
    record(4, call('getPass', '/passes/p3', 404)),
    record(5, call('getPass', '/passes/p4', 500)),
    record(6, call('getPass', '/passes/p3', 500)),
  ];

  test('returns the three calls of the operation with the fewest differences, each with its differences', () => {
    expect(nearMisses(calls, { operationId: 'getPass', path: '/passes/p3', status: 404 })).toEqual([
      { call: calls[1], differences: ['path: expected "/passes/p3", received "/passes/p1"'] },
      { call: calls[5], differences: ['status: expected 404, received 500'] },
      {
        call: calls[2],
        differences: ['path: expected "/passes/p3", received "/passes/p2"', 'status: expected 404, received 200'],
      },
    ]);
  });

  test('returns as many as the limit asks', () => {
    expect(nearMisses(calls, { operationId: 'getPass', status: 201 }, 4)).toHaveLength(4);
  });

  test('leaves out calls that match', () => {
    expect(nearMisses(calls, { operationId: 'getPass', status: 404 }).map((m) => m.call.id)).toEqual([
      'call-3',
      'call-5',
      'call-6',
    ]);
  });

  test('looks at every call when none has the operation', () => {
    expect(nearMisses(calls, { operationId: 'createPass', path: '/passes' }).map((m) => m.call.id)).toEqual([
      'call-1',
      'call-2',
      'call-3',
    ]);
  });

  test('looks at every call when the match names no operation', () => {
    expect(nearMisses(calls, { path: '/passes/p4' }, 6).map((m) => m.call.id)).toEqual([
      'call-1',
      'call-2',
      'call-3',
      'call-4',
      'call-6',
    ]);
  });
});

describe('a timed-out wait explains itself at a bounded cost', () => {
  const filled = (size: number) => {
    const journal = new Journal(size);
    for (let i = 1; i <= size; i++) journal.record(call('getPass', `/passes/p${i}`));
    return journal;
  };

  test('the journal hands out views of its newest calls, oldest first, without copying them', () => {
    const journal = filled(10);
    const recent = journal.recent(3);
    expect(recent.map((c) => c.id)).toEqual(['call-8', 'call-9', 'call-10']);
    expect(journal.recent(50)).toHaveLength(10);
  });

  test('the closest calls come from the newest ones only: a full journal is not read whole', () => {
    const journal = filled(5000);
    const explained = waitTimeout({ operationId: 'getPass', path: '/passes/p1' }, 10, journal.recent(200)).message;
    expect(explained).toMatch(/call-4801 GET \/passes\/p4801/);
    expect(explained).not.toMatch(/call-1 GET/);
  });
});
