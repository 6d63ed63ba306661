// The parts of @stoplight/prism-http the mock uses, with the few types it needs. Only the files of this folder
// (and generate/sample-static.ts, for Prism's sampler) use them; they hand the rest of the mock plain values.
// The platform loads them where Prism finds them and installs them here once, before the first contract is
// read: in Node, node/prism-modules.ts (every entry point imports it); a browser bundle would do the same.
import type { IHttpOperation } from '@stoplight/types';
import { patternEngine } from '../lib/pattern-engine.js';
import { quickDateTime } from './quick-date-time.js';
import { keepUnsentAbsent, type DeepObjectDeserializer } from './deep-object.js';
import { mediaTypeOf } from '../http/body-kind.js';

interface Left<L> {
  _tag: 'Left';
  left: L;
}
interface Right<R> {
  _tag: 'Right';
  right: R;
}
/** fp-ts's Either, as Prism returns it. */
export type Either<L, R> = Left<L> | Right<R>;

/** An fp-ts Option, as Prism's schema helpers return it. */
export type Option<T> = { _tag: 'None' } | { _tag: 'Some'; value: T };

/** The request as Prism reads it. */
export interface PrismRequest {
  method: string;
  url: { path: string; query: Record<string, string | string[]> };
  headers: Record<string, string>;
  body?: unknown;
}

/** A finding of Prism's validators; severity 0 is an error. */
export interface Diagnostic {
  message: string;
  code?: string | number;
  path?: string[];
  severity: number;
  tags?: string[];
}

type Validator = (opts: { resource: IHttpOperation; element: PrismRequest }) => Either<Diagnostic[], PrismRequest>;
type Transform = (document: object) => IHttpOperation[];

/** A compiled JSON Schema check, as ajv makes it: `errors` holds the last failures. */
export interface SchemaCheck {
  (value: unknown): boolean;
  errors?: object[] | null;
}

/** The part of an ajv instance the mock uses. */
export interface SchemaCompiler {
  compile(schema: object): SchemaCheck;
  removeSchema(schema: object): unknown;
}

type AjvClass = new (options: object) => SchemaCompiler & { addFormat(name: string, format: object): unknown };

/** @stoplight/json-schema-sampler, Prism's static bodies. */
export interface Sampler {
  sample(schema: unknown, options: { ticks: number }, spec: unknown): unknown;
  SchemaSizeExceededError: new (...args: never[]) => Error;
}

/** Prism's modules as the platform loads them: Prism's own files and its own copies of its dependencies. */
export interface PrismModules {
  /** One map serves query parameters and form bodies (`body` is `query`). */
  deserializers: { query: { deepObject: DeepObjectDeserializer } };
  /** @stoplight/http-spec's transformers, each loaded when first asked for: Postman's alone takes 0.3 s. */
  transformer(kind: 'openapi3' | 'swagger2' | 'postman'): Transform;
  /** http-spec's conversion of an OpenAPI schema to JSON Schema (it converts subschemas too, and sets `$schema`). */
  convertToJsonSchema(document: object, schema: object): object;
  validators: {
    validateInput: Validator;
    validateSecurity: Validator;
    validateOutput: (opts: {
      resource: IHttpOperation;
      element: { statusCode: number; headers: Record<string, string>; body: unknown };
    }) => Either<Diagnostic[], unknown>;
  };
  validateAgainstSchema(
    value: unknown,
    schema: object,
    coerce: boolean,
    context: number,
    prefix: string,
    bundle: unknown,
  ): Option<Diagnostic[]>;
  convertAjvErrors(errors: object[], severity: number, context: number, prefix: string): Diagnostic[];
  parseMIMEHeader(header: string): [string | undefined, string];
  wildcardMediaTypeMatch(a: string, b: string): boolean;
  stripReadOnlyProperties(schema: object): Option<object>;
  stripWriteOnlyProperties(schema: object): Option<object>;
  mergeAllOf(schema: object, options: object): object;
  ajv: Record<'default' | 'draft2019_09' | 'draft2020_12', AjvClass>;
  addFormats(ajv: object): void;
  dateTime: { fmtDef(validate: unknown, compare: unknown): object; date_time: unknown; compareDateTime: unknown };
  sampler: Sampler;
}

let installed: PrismModules | undefined;

/**
 * Installs Prism's modules (the first installation wins: a second import of the loader changes nothing).
 * @example installPrismModules(loadPrismModules()) // node/prism-modules.ts does it when imported
 */
export function installPrismModules(modules: PrismModules): void {
  if (installed) return;
  // An object nobody sent stays absent (see deep-object.ts).
  modules.deserializers.query.deepObject = keepUnsentAbsent(modules.deserializers.query.deepObject);
  installed = modules;
}

/** The installed modules; a clear error when the platform never loaded them. */
export function prism(): PrismModules {
  if (installed) return installed;
  throw new Error(
    "Prism's modules are not loaded: import the package ('membership-mock') or mock/node/prism-modules.js first.",
  );
}

/** http-spec's transformers, by document kind. */
export const transforms: Record<'openapi3' | 'swagger2' | 'postman', Transform> = {
  openapi3: (document) => prism().transformer('openapi3')(document),
  swagger2: (document) => prism().transformer('swagger2')(document),
  postman: (document) => prism().transformer('postman')(document),
};

/** http-spec's conversion of an OpenAPI schema to JSON Schema (it converts subschemas too, and sets `$schema`). */
export const convertToJsonSchema = (document: object, schema: object): object =>
  prism().convertToJsonSchema(document, schema);

/** Prism's validators of a request, its security and a response. */
export const validators: PrismModules['validators'] = {
  validateInput: (opts) => prism().validators.validateInput(opts),
  validateSecurity: (opts) => prism().validators.validateSecurity(opts),
  validateOutput: (opts) => prism().validators.validateOutput(opts),
};

/** The parts Prism's body validation is built from, for JSON bodies validated without its plumbing. */
export const bodyParts = {
  /** Runs Prism's cached ajv function for a schema; `Some(findings)` when the value does not fit. */
  validateAgainstSchema: (...args: Parameters<PrismModules['validateAgainstSchema']>) =>
    prism().validateAgainstSchema(...args),
  /** `[boundary, essence]` of a Content-Type header (throws on a malformed one, as Prism does). */
  parseMIMEHeader: (header: string) => prism().parseMIMEHeader(header),
  wildcardMediaTypeMatch: (a: string, b: string) => prism().wildcardMediaTypeMatch(a, b),
  stripReadOnlyProperties: (schema: object) => prism().stripReadOnlyProperties(schema),
  /** Output bodies are checked without write-only properties, as Prism checks its answers. */
  stripWriteOnlyProperties: (schema: object) => prism().stripWriteOnlyProperties(schema),
  /** Prism's own allOf merger. */
  mergeAllOf: (schema: object, options: object) => prism().mergeAllOf(schema, options),
};

/**
 * The content a media type selects among an operation's: the one of exactly that type (case and parameters
 * aside), else the first Prism's match selects (`application/*`; and Prism reads every `…+json` as
 * `application/json`, so a `merge-patch+json` body would be checked against a `json-patch+json` list first).
 * @example contentFor('application/merge-patch+json', contents) // the merge patch's content, wherever it is listed
 */
export function contentFor<T extends { mediaType: string }>(mediaType: string, contents: readonly T[]): T | undefined {
  const wanted = mediaTypeOf(mediaType);
  return (
    contents.find((c) => mediaTypeOf(c.mediaType) === wanted) ??
    contents.find((c) => bodyParts.wildcardMediaTypeMatch(mediaType, c.mediaType))
  );
}

/**
 * An ajv of the caller's own, set up as the one Prism checks bodies with (its options, formats, date-time and
 * linear-time patterns), for the JSON Schema draft a schema's `$schema` names. Prism's own instance keeps every
 * schema it ever compiled; one of these lets a caller bound what it keeps (`removeSchema`), or drop it whole.
 */
export function createSchemaCompiler(draft: keyof PrismModules['ajv']): SchemaCompiler {
  const { ajv: classes, addFormats, dateTime } = prism();
  const ajv = new classes[draft]({
    allErrors: true,
    allowUnionTypes: true,
    allowMatchingProperties: true,
    strict: false,
    coerceTypes: false,
    // Contract patterns run in linear time, as in Prism's own instances (see node/prism-modules.ts).
    code: { regExp: patternEngine },
    logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
  });
  addFormats(ajv);
  const prismDateTime = dateTime.date_time as (value: string) => boolean;
  ajv.addFormat('date-time', dateTime.fmtDef(quickDateTime(prismDateTime), dateTime.compareDateTime));
  return ajv;
}

const sharedCompilers = new Map<keyof PrismModules['ajv'], SchemaCompiler>();

/**
 * The process's one {@link createSchemaCompiler} of a draft, for checks compiled once and held by their caller
 * (who removes each schema from it once compiled): the checks of answers, of values, of formats.
 */
export function sharedSchemaCompiler(draft: keyof PrismModules['ajv']): SchemaCompiler {
  let compiler = sharedCompilers.get(draft);
  if (!compiler) sharedCompilers.set(draft, (compiler = createSchemaCompiler(draft)));
  return compiler;
}

/** Turns ajv's failures into Prism's findings, with Prism's messages (`Response body must be object`). */
export const convertAjvErrors = (errors: object[], severity: number, context: number, prefix: string): Diagnostic[] =>
  prism().convertAjvErrors(errors, severity, context, prefix);
