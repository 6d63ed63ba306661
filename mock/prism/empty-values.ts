// Parameters sent with an empty value (`?cursor=`, `?cursor`, `X-Trace:` with nothing): Prism's validator drops
// every empty value before it checks the parameters, so an optional one passes whatever its schema says
// (`minLength: 1`, a pattern, an enum, a format, an integer). Here the empty value is checked as the empty
// string, as any other value is; `allowEmptyValue: true` accepts it. A required parameter sent empty stays
// missing for Prism (refused), unless `allowEmptyValue: true` says an empty value is one.
import type { IHttpOperation } from '@stoplight/types';
import { bodyParts, type Diagnostic, type PrismRequest } from './prism-modules.js';
import { INPUT } from './schema-check.js';

interface EmptyValueRule {
  where: 'query' | 'header';
  /** The name lowercased, as Prism keys parameters. */
  name: string;
  allowEmpty: boolean;
  required: boolean;
  /** The schema Prism would check the value with, as the one property of an object (made once). */
  holder: object;
}

/**
 * A check of the empty values of an operation's query and header parameters, given Prism's findings on the
 * same request; `undefined` when the operation has no parameter an empty value could be sent for.
 * @example emptyValueCheck(spec.request)?.(element, findings) // findings, with `cursor`'s minLength added
 */
export function emptyValueCheck(
  request: IHttpOperation['request'],
  bundle: unknown,
): ((element: PrismRequest, findings: Diagnostic[]) => Diagnostic[]) | undefined {
  const rules = [
    ...(request?.query ?? []).map((param) => ruleOf('query', param)),
    ...(request?.headers ?? []).map((param) => ruleOf('header', param)),
  ].filter((rule): rule is EmptyValueRule => rule !== undefined);
  if (rules.length === 0) return undefined;
  return (element, findings) => {
    let result = findings;
    for (const rule of rules) {
      if (valueOf(rule.where === 'query' ? element.url.query : element.headers, rule.name) !== '') continue;
      // Prism read it as absent: an allowed empty value is no missing one.
      if (rule.allowEmpty) {
        if (rule.required) result = result.filter((d) => !isMissing(d, rule));
        continue;
      }
      if (rule.required) continue;
      const found = bodyParts.validateAgainstSchema({ [rule.name]: '' }, rule.holder, true, INPUT, rule.where, bundle);
      if (found._tag === 'Some') result = [...result, ...found.value];
    }
    return result;
  };
}

type Param = { name: string; schema?: unknown; required?: boolean; allowEmptyValue?: boolean; style?: string };

/**
 * The rule of a parameter whose empty value Prism drops: a primitive one (an array's or an object's empty
 * value is deserialized as one, and checked by Prism).
 */
function ruleOf(where: EmptyValueRule['where'], param: Param): EmptyValueRule | undefined {
  const schema = typeof param.schema === 'object' && param.schema !== null ? param.schema : {};
  const type = (schema as { type?: unknown }).type;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('array') || types.includes('object') || param.style === 'deepObject') return undefined;
  const name = param.name.toLowerCase();
  return {
    where,
    name,
    allowEmpty: param.allowEmptyValue === true,
    required: param.required === true,
    holder: { type: 'object', properties: { [name]: schema } },
  };
}

/** A parameter's value, its name compared as Prism compares it: case aside, the last one named wins. */
function valueOf(values: Record<string, string | string[]>, name: string): string | string[] | undefined {
  let found: string | string[] | undefined;
  for (const key in values) if (key.toLowerCase() === name) found = values[key];
  return found;
}

/** Prism's finding that a parameter is missing: `Request query must have required property 'name'`. */
function isMissing(d: Diagnostic, rule: EmptyValueRule): boolean {
  return d.code === 'required' && d.path?.[0] === rule.where && d.message.endsWith(`property '${rule.name}'`);
}
