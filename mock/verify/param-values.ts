// Chooses values for an operation's parameters (the same value for a name all walk long) and builds URLs.
import type { IHttpOperation } from '@stoplight/types';
import { createBodyGenerator } from '../generate/generate-body.js';
import { hashSeed } from '../lib/hash-seed.js';
import { compileContractPattern } from '../lib/pattern-engine.js';
import { isObject } from '../schema/schema-facts.js';

/** Made-up parameter values: the one given for a name, else the same value every time it is asked for. */
export interface ParamValues {
  valueOf(name: string, schema: unknown): string | string[];
}

const SAFE_FALLBACK = 'verify';

/**
 * Prefers `verify_<seed-derived suffix>` where the schema allows it, then a value generated from the
 * schema, then `verify`.
 * @example createParamValues(1, {}).valueOf('member_id', { type: 'string', pattern: '^[a-z0-9_]+$' }) // 'verify_…'
 */
export function createParamValues(seed: number | string, given: Record<string, string> = {}): ParamValues {
  const generator = createBodyGenerator(seed);
  const preferred = `verify_${hashSeed(String(seed)).toString(36)}`;
  const chosen = new Map<string, string | string[]>(Object.entries(given));
  const generate = (schema: unknown, name: string) => {
    try {
      return toParam(generator.generate(schema, `verify param ${name}`));
    } catch {
      return SAFE_FALLBACK;
    }
  };
  return {
    valueOf(name, schema) {
      let value = chosen.get(name);
      if (value === undefined) {
        value = fitsString(preferred, schema) ? preferred : generate(schema, name);
        chosen.set(name, value);
      }
      return value;
    },
  };
}

/**
 * The path (with the required query parameters) and the required header parameters of an operation.
 * `fixed` wins over made-up values, e.g. the id of a record just created.
 * @example buildTarget(spec, values, { pass_id: 'pas_1' }, ['authorization']).path // '/members/verify_x/passes/pas_1'
 */
export function buildTarget(
  spec: IHttpOperation,
  values: ParamValues,
  fixed: Record<string, string>,
  sentHeaders: string[],
): { path: string; headers: Record<string, string> } {
  const valueOf = (name: string, schema: unknown) => fixed[name] ?? values.valueOf(name, schema);
  const path = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = valueOf(name, spec.request?.path?.find((p) => p.name === name)?.schema);
    return encodeURIComponent(Array.isArray(value) ? value.join(',') : value);
  });
  const query = new URLSearchParams();
  for (const param of spec.request?.query ?? []) {
    if (!param.required) continue;
    const value = valueOf(param.name, param.schema);
    for (const item of Array.isArray(value) ? value : [value]) query.append(param.name, item);
  }
  const headers: Record<string, string> = {};
  for (const param of spec.request?.headers ?? []) {
    if (!param.required || sentHeaders.includes(param.name.toLowerCase())) continue;
    const value = valueOf(param.name, param.schema);
    headers[param.name] = Array.isArray(value) ? value.join(',') : value;
  }
  const search = query.toString();
  return { path: search ? `${path}?${search}` : path, headers };
}

function toParam(value: unknown): string | string[] {
  if (Array.isArray(value)) return value.map((item) => (isPrimitive(item) ? String(item) : SAFE_FALLBACK));
  return isPrimitive(value) ? String(value) : SAFE_FALLBACK;
}

function isPrimitive(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Whether a plain string certainly fits a schema (a format or a combinator is not checked, so it does not). */
function fitsString(value: string, schema: unknown): boolean {
  if (!isObject(schema)) return schema === undefined;
  if (schema.type !== undefined && schema.type !== 'string') return false;
  if (schema.format !== undefined || schema.allOf || schema.anyOf || schema.oneOf || schema.not) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
  if (typeof schema.pattern !== 'string') return true;
  try {
    return compileContractPattern(schema.pattern).test(value);
  } catch {
    return false;
  }
}
