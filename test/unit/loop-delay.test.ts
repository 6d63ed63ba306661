import { afterEach, expect, test, vi } from 'vitest';

afterEach(() => {
  vi.useRealTimers();
});

/** Holds the event loop for `ms`, as a long synchronous task would. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test('health reports how late the event loop ran over the last window, then starts a new window', async () => {
  // Only the window's timer is faked: the delay itself is measured by Node, in real time.
  vi.useFakeTimers({ toFake: ['setInterval'] });
  vi.resetModules();
  const { loopDelay } = await import('../../mock/admin/loop-delay.js');
  expect(loopDelay()).toEqual({ p50: 0, p99: 0, max: 0, windowMs: 10_000 });

  await new Promise((resolve) => setTimeout(resolve, 30));
  block(300);
  await new Promise((resolve) => setTimeout(resolve, 30));
  vi.advanceTimersByTime(10_000);
  const held = loopDelay();
  expect(held.max).toBeGreaterThanOrEqual(250);
  expect(held.p99).toBeGreaterThanOrEqual(held.p50);

  await new Promise((resolve) => setTimeout(resolve, 50));
  vi.advanceTimersByTime(10_000);
  expect(loopDelay().max).toBeLessThan(200);
});
