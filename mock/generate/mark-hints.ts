// Finds, once per schema, which of its values have hints and which objects must make their fields agree.
import { isObject } from '../schema/schema-facts.js';
import { chooseHint, type Hint } from './choose-hint.js';
import { singular, type NameContext, type PersonPart } from './name-hints.js';

/**
 * A rule for the values of one object, applied once its fields are drawn:
 * - `tie`: examples of `field` that name a value of the enum `by` (a label "Side gate PIN" names `kind: pin`)
 *   go only with that value; examples naming none of its values go with a value no example names;
 * - `person`: emails, usernames and initials are made from the first, last or full name beside them.
 */
export type ObjectRule =
  | { tie: string; by: string; naming: ReadonlyMap<string, readonly string[]>; neutral: readonly string[] }
  | { person: Partial<Record<PersonPart, string[]>>; fits: ReadonlyMap<string, (value: unknown) => boolean> };

/** The hints of one schema's nodes, by node (the prepared schema's own objects). */
export interface HintMarks {
  values: WeakMap<object, Hint>;
  objects: WeakMap<object, ObjectRule[]>;
}

const MAX_DEPTH = 64;

/**
 * Walks schemas keyword by keyword, knowing each property's name, and marks their nodes with their hints (a
 * schema and the parts of its bundle its `$ref`s reach are marked together); `undefined` when no node has one
 * (json-schema-faker's draw then needs no second look).
 * @example markHints({ type: 'object', properties: { email: { type: 'string' } } })?.values // one hint
 */
export function markHints(...schemas: unknown[]): HintMarks | undefined {
  const marks: HintMarks = { values: new WeakMap(), objects: new WeakMap() };
  let found = false;
  const visit = (node: unknown, context: NameContext | undefined, depth: number): void => {
    if (!isObject(node) || depth > MAX_DEPTH) return;
    const hint = chooseHint(node, context);
    if (hint) {
      marks.values.set(node, hint);
      found = true;
    }
    if (isObject(node.properties)) {
      const properties = node.properties as Record<string, unknown>;
      const names = Object.keys(properties);
      for (const name of names) {
        const siblings = names.filter((other) => other !== name);
        visit(properties[name], { name, siblings, owner: context?.name }, depth + 1);
      }
      const rules = objectRules(properties, marks.values);
      if (rules.length > 0) {
        marks.objects.set(node, rules);
        found = true;
      }
    }
    const items = Array.isArray(node.items) ? node.items : [node.items];
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    for (const item of [...items, ...prefix, node.additionalItems, node.contains])
      visit(item, context && { ...context, name: singular(context.name) }, depth + 1);
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      if (Array.isArray(node[key])) for (const part of node[key]) visit(part, context, depth + 1);
    }
    visit(node.additionalProperties, undefined, depth + 1);
    if (isObject(node.patternProperties))
      for (const part of Object.values(node.patternProperties)) visit(part, undefined, depth + 1);
  };
  for (const schema of schemas) visit(schema, undefined, 0);
  return found ? marks : undefined;
}

function objectRules(properties: Record<string, unknown>, values: WeakMap<object, Hint>): ObjectRule[] {
  const rules: ObjectRule[] = [];
  const person: Partial<Record<PersonPart, string[]>> = {};
  const fits = new Map<string, (value: unknown) => boolean>();
  for (const [name, node] of Object.entries(properties)) {
    const hint = isObject(node) ? values.get(node) : undefined;
    if (!hint) continue;
    if ('pick' in hint) {
      const tie = tieOf(name, hint.pick, properties);
      if (tie) rules.push(tie);
    } else if (hint.role) {
      (person[hint.role] ??= []).push(name);
      fits.set(name, hint.fits);
    }
  }
  const named = person.first || person.last || person.full;
  if (named && (person.email || person.username || person.initials)) rules.push({ person, fits });
  return rules;
}

/** The first enum beside `field` whose values some of its examples name, as a tie; `undefined` if none is. */
function tieOf(
  field: string,
  examples: readonly unknown[],
  properties: Record<string, unknown>,
): ObjectRule | undefined {
  const texts = examples.filter((value): value is string => typeof value === 'string');
  for (const [by, node] of Object.entries(properties)) {
    if (by === field || !isObject(node) || !Array.isArray(node.enum)) continue;
    const naming = new Map<string, string[]>();
    const named = new Set<string>();
    for (const value of node.enum) {
      if (typeof value !== 'string' || value === '') continue;
      const word = new RegExp(
        `(^|[^\\p{L}\\p{N}])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`,
        'iu',
      );
      const found = texts.filter((text) => word.test(text));
      if (found.length === 0) continue;
      naming.set(value, found);
      found.forEach((text) => named.add(text));
    }
    if (naming.size > 0) return { tie: field, by, naming, neutral: texts.filter((text) => !named.has(text)) };
  }
  return undefined;
}
