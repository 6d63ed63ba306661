// Which declared query parameter a key of the query string belongs to, by the parameter's style: a deepObject's
// keys are `name[property]`, and a form object exploded (the default for an object in the query) sends each
// property as a key of its own. Coverage counts a parameter sent when any of its keys was.
import { mergedSchema } from '../prism/schema-check.js';

/** A query parameter as the contract declares it (http-spec's shape). */
export interface QueryParameter {
  name: string;
  style?: string;
  explode?: boolean;
  schema?: unknown;
}

/**
 * A reader of query keys for an operation's parameters: the parameter a key is part of, or `undefined` for a key
 * none declares. A parameter's own name wins over a property of another's.
 * @example queryParameterOf(params)('filter[a]') // 'filter', when `filter` is a deepObject
 */
export function queryParameterOf(parameters: readonly QueryParameter[]): (key: string) => string | undefined {
  const byKey = new Map<string, string>();
  const deepObjects = new Set<string>();
  for (const parameter of parameters) {
    if (parameter.style === 'deepObject') deepObjects.add(parameter.name);
    if ((parameter.style ?? 'form') !== 'form' || parameter.explode === false) continue;
    for (const property of objectProperties(parameter.schema))
      if (!byKey.has(property)) byKey.set(property, parameter.name);
  }
  for (const parameter of parameters) byKey.set(parameter.name, parameter.name);
  return (key) => {
    const named = byKey.get(key);
    if (named !== undefined) return named;
    const open = key.indexOf('[');
    return open > 0 && deepObjects.has(key.slice(0, open)) ? key.slice(0, open) : undefined;
  };
}

/** The properties an object schema declares, `allOf` merged; none for any other schema. */
function objectProperties(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const merged = mergedSchema(schema) as { properties?: Record<string, unknown> };
  return typeof merged.properties === 'object' && merged.properties !== null ? Object.keys(merged.properties) : [];
}
