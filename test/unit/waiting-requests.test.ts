import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { WaitingRequests } from '../../mock/node/waiting-requests.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A request that notes how it was answered. */
function request(answers: string[], name: string): [() => void, (why?: string) => void] {
  return [() => answers.push(`${name} ran`), (why) => answers.push(`${name} 503${why ? ` ${why}` : ''}`)];
}

describe('WaitingRequests', () => {
  test('answers 503 at once a request past the most that may wait', () => {
    const answers: string[] = [];
    const waiting = new WaitingRequests(1000, 2);
    for (const name of ['a', 'b', 'c']) waiting.add(...request(answers, name));
    expect(answers).toEqual(['c 503 queue-full']);
    expect(waiting.size).toBe(2);
  });

  test('answers 503 each request that waited its timeout, the batch whose section is beginning too', () => {
    const answers: string[] = [];
    const waiting = new WaitingRequests(1000, 10);
    waiting.add(...request(answers, 'a'));
    vi.advanceTimersByTime(400);
    waiting.add(...request(answers, 'b'));
    const batch = waiting.take(1);
    vi.advanceTimersByTime(600);
    expect(answers).toEqual(['a 503']);
    expect(batch[0]!.expired).toBe(true);
    vi.advanceTimersByTime(400);
    expect(answers).toEqual(['a 503', 'b 503']);
    expect(waiting.size).toBe(0);
  });

  test('failAll answers the batch and every request behind it, not one answered already', () => {
    const answers: string[] = [];
    const waiting = new WaitingRequests(1000, 10);
    for (const name of ['a', 'b', 'c']) waiting.add(...request(answers, name));
    const batch = waiting.take(2);
    batch[0]!.expired = true;
    waiting.failAll(batch);
    expect(answers).toEqual(['b 503', 'c 503']);
    expect(waiting.size).toBe(0);
  });

  test('tells how many of the beginning batch waited their timeout, before answering them; not those queued', () => {
    const answers: string[] = [];
    const waiting = new WaitingRequests(1000, 4, (count) => answers.push(`${count} expired`));
    for (const name of ['a', 'b', 'c']) waiting.add(...request(answers, name));
    vi.advanceTimersByTime(300);
    for (const name of ['d', 'e']) waiting.add(...request(answers, name));
    expect(answers).toEqual(['e 503 queue-full']);
    waiting.take(2);
    vi.advanceTimersByTime(700);
    expect(answers).toEqual(['e 503 queue-full', '2 expired', 'a 503', 'b 503', 'c 503']);
    // Only waited its turn behind a batch: the store is not blamed.
    vi.advanceTimersByTime(300);
    expect(answers).toEqual(['e 503 queue-full', '2 expired', 'a 503', 'b 503', 'c 503', 'd 503']);
  });
});
