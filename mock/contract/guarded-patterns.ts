// The contract's patterns that cannot run in linear time (a backreference): found when it is loaded, named at start.
import type { IHttpOperation } from '@stoplight/types';
import { isContainer, isObject } from '../lib/json-value.js';
import { compileContractPattern, guardDescription } from '../lib/pattern-engine.js';
import { forEachSubschema } from '../schema/schema-keywords.js';
import type { Operation } from './contract.js';
import { schemaHolders } from './operation-schemas.js';

/** A pattern RE2 cannot run, why, and the operations whose schemas have it. */
export interface GuardedPattern {
  pattern: string;
  reason: string;
  operations: string[];
}

/**
 * The patterns (`pattern`, and the keys of `patternProperties`) of the operations' schemas that run on
 * JavaScript's RegExp under the guard instead of RE2, in contract order. Compiling them here also readies the guard.
 * @example guardedPatterns(contract.operations) // [{ pattern: '^(a)\\1$', reason: 'it uses a backreference', … }]
 */
export function guardedPatterns(operations: readonly Operation[]): GuardedPattern[] {
  const found = new Map<string, GuardedPattern>();
  const note = (pattern: string, operation: string) => {
    let compiled;
    try {
      compiled = compileContractPattern(pattern);
    } catch {
      return; // not an ECMA-262 pattern: ajv refuses the schema, as it always did
    }
    if (compiled.engine !== 'guarded') return;
    const entry =
      found.get(pattern) ?? found.set(pattern, { pattern, reason: compiled.reason!, operations: [] }).get(pattern)!;
    if (!entry.operations.includes(operation)) entry.operations.push(operation);
  };
  for (const { id, spec } of operations) {
    const seen = new Set<object>();
    const visit = (schema: object): void => {
      if (seen.has(schema)) return;
      seen.add(schema);
      const node = schema as Record<string, unknown>;
      if (typeof node.pattern === 'string') note(node.pattern, id);
      if (isObject(node.patternProperties)) for (const key of Object.keys(node.patternProperties)) note(key, id);
      forEachSubschema(schema, visit);
    };
    for (const holder of schemaHolders(spec)) if (isContainer(holder.schema)) visit(holder.schema);
    const bundle = (spec as IHttpOperation & { __bundled__?: Record<string, unknown> }).__bundled__ ?? {};
    for (const schema of Object.values(bundle)) if (isContainer(schema)) visit(schema);
  }
  return [...found.values()];
}

/**
 * One warning per pattern RE2 cannot run: a person starting the mock learns which and what it means.
 * @example warnGuardedPatterns(contract.operations, logger.warn)
 */
export function warnGuardedPatterns(
  operations: readonly Operation[],
  warn: (msg: string, fields?: Record<string, unknown>) => void,
): void {
  for (const { pattern, reason, operations: ids } of guardedPatterns(operations)) {
    warn(
      `the pattern ${JSON.stringify(pattern)} (${ids.join(', ')}) cannot run in linear time (${reason}): ` +
        `JavaScript's RegExp ${guardDescription()}, and a value it gives no verdict on is refused.`,
      { event: 'start', pattern, operations: ids },
    );
  }
}
