// Fault injection for resilience tests: latency, failures and dropped connections, repeatable under a seed.
import type { FaultKind } from '../journal/call-record.js';
import { hashSeed } from '../lib/hash-seed.js';

/**
 * Latency in milliseconds (0-60000): a number, or a range `"MIN-MAX"` (`"100-300"`) drawn from per request.
 * The one format of the CLI (`--latency 100-300`), `PUT /__mock/faults` and `startMock({ faults })`.
 */
export type Latency = number | `${number}-${number}`;

/** What every refusal of a latency says it should have been. */
export const LATENCY_FORMAT = 'milliseconds (0-60000) or a range "MIN-MAX" such as "100-300"';

/** Faults applied to every answer of the contract's operations. */
export interface Faults {
  /**
   * Milliseconds added to each answer: a fixed number, or a range `"MIN-MAX"` drawn from per request.
   * @example { latency: '100-300' }
   */
  latency?: Latency;
  /** Share of requests (0-1) answered with the operation's documented 5xx (500 if none is documented). */
  failureRate?: number;
  /** Share of requests (0-1) whose connection is closed without an answer. */
  dropRate?: number;
}

const MAX_LATENCY = 60_000;

/**
 * A departure from the contract's answer the mock made on purpose, as the journal and the log mark it:
 * `drop` (the connection closed, no answer), `failure` (an injected 5xx), `latency` (an answer held back).
 */
export type { FaultKind };

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
  const [min, max] = latencyRange(latency);
  return {
    delay: Math.round(min + roll('latency') * (max - min)),
    drop: roll('drop') < dropRate,
    fail: roll('fail') < failureRate,
  };
}

/**
 * Reads `100` or `100-300` (milliseconds), as text: the latency in its one form (a range whose ends are
 * equal is that number), or `undefined` when the text is neither.
 * @example parseLatency('100-300') // '100-300'
 */
export function parseLatency(text: string): Latency | undefined {
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text.trim());
  if (!match) return undefined;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  if (max < min || max > MAX_LATENCY) return undefined;
  return min === max ? min : `${min}-${max}`;
}

/** The latency as given over HTTP or in options: its one form, or `undefined` when it is not a latency. */
function readLatency(value: unknown): Latency | undefined {
  if (typeof value === 'number')
    return Number.isInteger(value) && value >= 0 && value <= MAX_LATENCY ? value : undefined;
  return typeof value === 'string' ? parseLatency(value) : undefined;
}

/** The lowest and highest delay of a latency that {@link parseLatency} or {@link readFaults} accepted. */
function latencyRange(latency: Latency): [number, number] {
  if (typeof latency === 'number') return [latency, latency];
  const [min, max] = latency.split('-').map(Number) as [number, number];
  return [min, max];
}

/** Why a latency is refused; a `[min, max]` pair (an older form) is told how to write it. */
function latencyError(latency: unknown): string {
  const given = JSON.stringify(latency) ?? String(latency);
  const pair = Array.isArray(latency) && latency.length === 2 ? parseLatency(latency.join('-')) : undefined;
  const instead = typeof pair === 'string' ? ` (write "${pair}")` : '';
  return `latency is ${LATENCY_FORMAT}, not ${given.length > 40 ? `${given.slice(0, 39)}…` : given}${instead}`;
}

/** Checks faults given over HTTP or in options: the faults, or the reasons they are refused. */
export function readFaults(value: unknown): { ok: true; faults: Faults } | { ok: false; errors: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, errors: ['faults are a JSON object: { latency, failureRate, dropRate }'] };
  const { latency, failureRate, dropRate, ...rest } = value as Record<string, unknown>;
  const errors = Object.keys(rest).map((key) => `unknown field "${key}"; faults have latency, failureRate, dropRate`);
  const delay = latency === undefined ? undefined : readLatency(latency);
  if (latency !== undefined && delay === undefined) errors.push(latencyError(latency));
  for (const [name, rate] of [
    ['failureRate', failureRate],
    ['dropRate', dropRate],
  ] as const) {
    if (rate !== undefined && !(typeof rate === 'number' && rate >= 0 && rate <= 1))
      errors.push(`${name} is a share from 0 to 1`);
  }
  if (errors.length) return { ok: false, errors };
  // Only the faults given: what GET /__mock/faults answers is what was set.
  const faults: Faults = {};
  if (delay !== undefined) faults.latency = delay;
  if (failureRate !== undefined) faults.failureRate = failureRate as number;
  if (dropRate !== undefined) faults.dropRate = dropRate as number;
  return { ok: true, faults };
}
