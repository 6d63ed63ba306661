// How long requests wait for the event loop: what GET /__mock/health reports as `eventLoop`, so a slow answer
// can be told apart from a busy machine (the loop free, the probe slow) and from a busy mock (the loop late).
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** The loop's delay over the last whole window, in milliseconds. */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  /** The window's length, in milliseconds. */
  windowMs: number;
}

const WINDOW_MS = 10_000;
let histogram: IntervalHistogram | undefined;
let last: LoopDelay = { p50: 0, p99: 0, max: 0, windowMs: WINDOW_MS };

/**
 * The event loop's delay (Node's `monitorEventLoopDelay`, sampled every 10 ms) over the last 10 s window;
 * the first call starts watching, and the figures are zeros until a window is complete.
 * @example loopDelay().p99 // 12.3
 */
export function loopDelay(): LoopDelay {
  if (!histogram) {
    const watching = (histogram = monitorEventLoopDelay({ resolution: 10 }));
    watching.enable();
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    setInterval(() => {
      last = {
        p50: ms(watching.percentile(50)),
        p99: ms(watching.percentile(99)),
        max: ms(watching.max),
        windowMs: WINDOW_MS,
      };
      watching.reset();
    }, WINDOW_MS).unref();
  }
  return last;
}
