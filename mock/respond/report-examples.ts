// At start, the examples of a contract that break their own schema: one line each, a bounded number, checked
// in slices after the mock listens, so a contract with thousands of examples never delays its first answer.
import type { Operation } from '../contract/contract.js';
import { counted } from '../lib/counted.js';
import { findContentViolations, SchemaChecks, type BodyViolation } from '../prism/check-response.js';

/** A response example that breaks the schema documented beside it. */
export interface BrokenExample {
  operationId: string;
  /** The response code as written (`200`, `4XX`, `default`). */
  code: string;
  mediaType: string;
  /** The example's name (`default` for a lone `example`). */
  name: string;
  violations: BodyViolation[];
}

/**
 * Every response example of the operations, checked one at a time: yields each broken one, and `undefined`
 * after each that fits (so a caller can pause between examples).
 * @example for (const found of checkExamples(contract.operations)) if (found) console.log(found.operationId)
 */
export function* checkExamples(
  operations: readonly Operation[],
  checks = new SchemaChecks(),
): Generator<BrokenExample | undefined> {
  for (const { id, spec } of operations) {
    for (const response of spec.responses) {
      for (const content of response.contents ?? []) {
        for (const example of content.examples ?? []) {
          if (!('value' in example) || example.value === undefined) continue;
          const violations = findContentViolations(checks, spec, content, example.value);
          yield violations.length === 0
            ? undefined
            : { operationId: id, code: response.code, mediaType: content.mediaType, name: example.key, violations };
        }
      }
    }
  }
}

/** Objects a schema may hold once expanded for its examples to be checked at start. */
const REPORT_NODES = 500;

/** How the start report is bounded. */
export interface ReportLimits {
  /** Lines at most; then one line says how many more were found. @default 20 */
  lines?: number;
  /** Milliseconds of checking at most, in slices; then one line says the check stopped. @default 1000 */
  budget?: number;
  /** Milliseconds of checking a slice, before the event loop gets its turn. @default 20 */
  slice?: number;
}

/**
 * Reports the broken examples of a contract, one line each (its message, and the example's fields for a
 * logger), checking in slices between other work.
 * @returns when every example was checked or the budget ran out
 * @example await reportBrokenExamples(contract.operations, logger.warn, {}, logger.info)
 */
export async function reportBrokenExamples(
  operations: readonly Operation[],
  warn: (msg: string, fields?: Record<string, unknown>) => void,
  { lines = 20, budget = 1000, slice = 20 }: ReportLimits = {},
  // That the budget ran out depends on the machine's load, not on the contract: it is news, not a warning.
  info: (msg: string) => void = warn,
): Promise<void> {
  // Schemas compiled for the report are let go with it. Only small ones are compiled: ajv's work on a big
  // contract's large schemas grew DigitalOcean's memory by ~130 MB for good, for a report at start.
  const examples = checkExamples(operations, new SchemaChecks(8, REPORT_NODES));
  let found = 0;
  let spent = 0;
  let next = examples.next();
  while (!next.done) {
    const start = performance.now();
    // At least one example a slice, so any budget makes progress.
    do {
      const broken = next.value;
      if (broken && ++found <= lines) warn(describeBroken(broken), { ...broken });
      next = examples.next();
    } while (!next.done && performance.now() - start < slice);
    spent += performance.now() - start;
    if (next.done) break;
    if (spent >= budget) {
      info(`stopped checking the contract's examples after ${Math.round(spent)} ms.`);
      break;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (found > lines)
    warn(`${counted(found - lines, 'more example')} ${found - lines === 1 ? 'breaks its' : 'break their'} schema.`);
}

function describeBroken({ operationId, code, mediaType, name, violations }: BrokenExample): string {
  const listed = violations.map((v) => `${v.pointer || '(root)'}: ${v.message}`).join('; ');
  return `the example "${name}" of ${operationId} ${code} ${mediaType} breaks its schema (${listed}).`;
}
