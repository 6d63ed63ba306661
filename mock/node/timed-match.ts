// Runs the patterns RE2 cannot run (a backreference) with JavaScript's RegExp on a worker thread, waiting for the
// verdict a bounded time: a value that would backtrack for hours costs the event loop the budget, then the
// worker is stopped and replaced.
import { Worker } from 'node:worker_threads';
import type { GuardedMatch } from '../lib/pattern-engine.js';

const IDLE = 0;
const MATCH = 1;
const NO_MATCH = 2;
const BUSY = 4;

/** The worker: says it has the value (BUSY), compiles each pattern once, writes its verdict (3: RegExp threw). */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const flag = new Int32Array(workerData);
const patterns = new Map();
const say = (index, value) => { Atomics.store(flag, index, value); Atomics.notify(flag, index); };
parentPort.on('message', ({ source, flags, value }) => {
  say(0, ${BUSY});
  let verdict = 3;
  try {
    const key = flags + '/' + source;
    if (!patterns.has(key)) { if (patterns.size > 1000) patterns.clear(); patterns.set(key, new RegExp(source, flags)); }
    verdict = patterns.get(key).test(value) ? ${MATCH} : ${NO_MATCH};
  } catch {}
  say(0, verdict);
});
say(1, 1);
`;

/** `[verdict, ready]`, shared with a worker. */
const newFlag = () => new Int32Array(new SharedArrayBuffer(8));

/** How long the first worker may take to start (it starts with the contract, before any value comes). */
const FIRST_START = 2000;

/**
 * A guard that runs JavaScript's RegExp on a worker thread and waits at most `budget` ms for its verdict
 * (`undefined` past it; the worker, still busy, is then stopped and replaced). The worker starts when the first
 * such pattern is compiled.
 * @example installGuardedMatch(createTimedMatch(40))
 */
export function createTimedMatch(budget: number): GuardedMatch {
  let worker: Worker | undefined;
  let flag = newFlag();
  let firstStart = true;
  const prepare = () => {
    if (worker) return;
    const started = new Worker(WORKER, { eval: true, workerData: (flag = newFlag()).buffer });
    // A worker that dies (out of memory) is replaced by the next value; its error is no crash of the mock.
    const forget = () => worker === started && (worker = undefined);
    started.on('error', forget).on('exit', forget).unref();
    worker = started;
  };
  /** Stops a stuck worker and starts its replacement at once, so the next value finds it ready. */
  const replace = () => {
    void worker?.terminate();
    worker = undefined;
    prepare();
  };
  const test = (source: string, flags: string, value: string) => {
    prepare();
    if (firstStart) {
      firstStart = false;
      Atomics.wait(flag, 1, 0, FIRST_START);
    }
    // Everything else, a replacement's start included, comes out of the budget.
    const deadline = performance.now() + budget;
    const left = () => Math.max(0, deadline - performance.now());
    if (Atomics.wait(flag, 1, 0, left()) === 'timed-out') return undefined;
    Atomics.store(flag, 0, IDLE);
    worker!.postMessage({ source, flags, value });
    for (;;) {
      const verdict = Atomics.load(flag, 0);
      if (verdict === MATCH || verdict === NO_MATCH) return verdict === MATCH;
      if (verdict !== IDLE && verdict !== BUSY) return undefined;
      if (Atomics.wait(flag, 0, verdict, left()) === 'timed-out') {
        replace();
        return undefined;
      }
    }
  };
  return { prepare, test, describe: `checks it with a time limit per value (${budget} ms)` };
}
