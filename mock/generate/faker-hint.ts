// A schema's `x-faker` (json-schema-faker's `faker`) read as a hint: a faker method whose value is used only
// where it fits the schema, instead of json-schema-faker putting whatever faker returns in place of the value.
import type { Faker } from '@faker-js/faker';
import type { JsonObject } from '../schema/schema-facts.js';
import type { Fits } from './fit-schema.js';

/** A faker method, by its path (`internet.password`), with the arguments it is called with. */
interface FakerCall {
  path: string[];
  args: unknown[];
}

/** Names a path may not go through: only faker's own modules and methods are called. */
const FORBIDDEN = new Set(['constructor', 'prototype', '__proto__', 'call', 'apply', 'bind']);

/**
 * Reads an `x-faker` as json-schema-faker does: a method's path (`person.firstName`), or an object whose first
 * key is the path and whose value its arguments (`{ 'number.int': [{ max: 9 }] }`; one argument needs no
 * list). `undefined` for anything else.
 * @example fakerCall('internet.password') // { path: ['internet', 'password'], args: [] }
 */
export function fakerCall(spec: unknown): FakerCall | undefined {
  let name: unknown = spec;
  let args: unknown[] = [];
  if (typeof spec === 'object' && spec !== null && !Array.isArray(spec)) {
    const [first] = Object.entries(spec);
    if (!first) return undefined;
    [name] = first;
    const given = first[1] as unknown;
    args = Array.isArray(given) ? given : given === undefined || given === null ? [] : [given];
  }
  if (typeof name !== 'string') return undefined;
  const path = name.split('.');
  if (path.some((step) => !/^[A-Za-z_$][\w$]*$/.test(step) || FORBIDDEN.has(step))) return undefined;
  return { path, args };
}

/**
 * A draw for an `x-faker`: faker's value, turned into the schema's type as json-schema-faker turns it (a
 * number for a string schema becomes its text, a numeric text for a number schema its number, an integer's
 * floored; a Date becomes an ISO date or date-time), the first way that `fits`. `undefined` when faker has no
 * such method, throws, or gives nothing that fits: the value json-schema-faker drew from the schema stays.
 * @example fakerDraw(fakerCall('internet.password')!, { type: 'string' }, fits)(faker) // 'LE4mf0pt90_ZmOC'
 */
export function fakerDraw(call: FakerCall, schema: JsonObject, fits: Fits): (faker: Faker) => unknown {
  const types = schema.type === undefined ? [undefined] : Array.isArray(schema.type) ? schema.type : [schema.type];
  return (faker) => {
    const raw = invoke(faker, call);
    if (raw === undefined) return undefined;
    for (const type of [undefined, ...types]) {
      const value = asType(raw, type, schema.format);
      if (value !== undefined && fits(value)) return value;
    }
    return undefined;
  };
}

function invoke(faker: Faker, { path, args }: FakerCall): unknown {
  let owner: unknown;
  let member: unknown = faker;
  for (const step of path) {
    if (typeof member !== 'object' || member === null) return undefined;
    owner = member;
    member = (member as Record<string, unknown>)[step];
  }
  if (typeof member !== 'function') return undefined;
  try {
    return (member as (...values: unknown[]) => unknown).apply(owner, args);
  } catch {
    return undefined;
  }
}

/** A faker value as a value of a JSON type (`undefined`: as it is, a Date made text). */
function asType(raw: unknown, type: unknown, format: unknown): unknown {
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return undefined;
    return format === 'date' ? raw.toISOString().slice(0, 10) : raw.toISOString();
  }
  switch (type) {
    case 'string':
      return typeof raw === 'number' || typeof raw === 'boolean' || typeof raw === 'bigint' ? String(raw) : raw;
    case 'number':
    case 'integer': {
      const number = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      if (typeof number === 'bigint') return Number(number);
      if (typeof number !== 'number') return raw;
      return type === 'integer' ? Math.floor(number) : number;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    default:
      return raw;
  }
}
