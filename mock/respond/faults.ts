// Fault injection for resilience tests: latency, failures and dropped connections, repeatable under a seed.
import { hashSeed } from '../generate/hash-seed.js';

/** Faults applied to every answer of the contract's operations. */
export interface Faults {
  /** Milliseconds added to each answer: a fixed number or a `[min, max]` range. */
  latency?: number | [number, number];
  /** Share of requests (0-1) answered with the operation's documented 5xx (500 if none is documented). */
  failureRate?: number;
  /** Share of requests (0-1) whose connection is closed without an answer. */
  dropRate?: number;
}

/**
 * A departure from the contract's answer the mock made on purpose, as the journal and the log mark it:
 * `drop` (the connection closed, no answer), `failure` (an injected 5xx), `latency` (an answer held back).
 */
export type FaultKind = 'drop' | 'failure' | 'latency';

/** What happens to one request. */
export interface FaultRoll {
  delay: number;
  fail: boolean;
  drop: boolean;
}

/** The roll of a request that no fault touches. */
export const NO_FAULT: FaultRoll = Object.freeze({ delay: 0, fail: false, drop: false });

/**
 * Rolls the faults for the n-th request of a session. The same seed, session and n always roll the same,
 * so a flaky-network test fails the same way twice.
 */
export function rollFaults(faults: Faults, seed: number | string, session: string, n: number): FaultRoll {
  const { latency = 0, failureRate = 0, dropRate = 0 } = faults;
  // Without faults (the default) every roll is the same: skip the three hashes on each request.
  if (latency === 0 && failureRate === 0 && dropRate === 0) return NO_FAULT;
  const roll = (salt: string) => hashSeed(`${seed}|${session}|${n}|${salt}`) / 2 ** 32;
  const [min, max] = typeof latency === 'number' ? [latency, latency] : latency;
  return {
    delay: Math.round(min + roll('latency') * (max - min)),
    drop: roll('drop') < dropRate,
    fail: roll('fail') < failureRate,
  };
}

/** Reads `100` or `100-300` (milliseconds). */
export function parseLatency(text: string): number | [number, number] | undefined {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!match) return undefined;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  return max < min || max > 60_000 ? undefined : match[2] === undefined ? min : [min, max];
}

/** Checks faults given over HTTP or in options: the faults, or the reasons they are refused. */
export function readFaults(value: unknown): { ok: true; faults: Faults } | { ok: false; errors: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, errors: ['faults are a JSON object: { latency, failureRate, dropRate }'] };
  const { latency, failureRate, dropRate, ...rest } = value as Record<string, unknown>;
  const errors = Object.keys(rest).map((key) => `unknown field "${key}"; faults have latency, failureRate, dropRate`);
  const ms = (n: unknown) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 60_000;
  if (
    latency !== undefined &&
    !(ms(latency) || (Array.isArray(latency) && latency.length === 2 && latency.every(ms) && latency[0] <= latency[1]))
  ) {
    errors.push('latency is milliseconds (0-60000) or a [min, max] pair');
  }
  for (const [name, rate] of [
    ['failureRate', failureRate],
    ['dropRate', dropRate],
  ] as const) {
    if (rate !== undefined && !(typeof rate === 'number' && rate >= 0 && rate <= 1))
      errors.push(`${name} is a share from 0 to 1`);
  }
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    faults: {
      latency: latency as Faults['latency'],
      failureRate: failureRate as number | undefined,
      dropRate: dropRate as number | undefined,
    },
  };
}
