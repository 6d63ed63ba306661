// The parts of @stoplight/prism-http the mock uses, loaded once, with the few types it needs. Only the files
// of this folder import it; they hand the rest of the mock plain values.
import { createRequire } from 'node:module';
import type { IHttpOperation } from '@stoplight/types';
import { keepUnsentAbsent, type DeepObjectDeserializer } from './deep-object.js';

const require = createRequire(import.meta.url);

// One map serves query parameters and form bodies (`body` is `query`): an object nobody sent stays absent.
const styles = require('@stoplight/prism-http/dist/validator/deserializers/index.js') as {
  query: { deepObject: DeepObjectDeserializer };
};
styles.query.deepObject = keepUnsentAbsent(styles.query.deepObject);

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

// Prism reads documents with @stoplight/http-spec's transformers, loaded from where Prism finds them. (Not
// Prism's own loader, utils/operations.js: it dereferences the whole document first; see contract/.)
const requireSpec = createRequire(require.resolve('@stoplight/prism-http/package.json'));
type Transform = (document: object) => IHttpOperation[];
/** Each transformer is loaded when first used: Postman's alone takes 0.3 s to load. */
export const transforms: Record<'openapi3' | 'swagger2' | 'postman', Transform> = {
  openapi3: (document) =>
    (
      requireSpec('@stoplight/http-spec/oas3/operation') as { transformOas3Operations: Transform }
    ).transformOas3Operations(document),
  swagger2: (document) =>
    (
      requireSpec('@stoplight/http-spec/oas2/operation') as { transformOas2Operations: Transform }
    ).transformOas2Operations(document),
  postman: (document) =>
    (
      requireSpec('@stoplight/http-spec/postman/operation') as { transformPostmanCollectionOperations: Transform }
    ).transformPostmanCollectionOperations(document),
};
/** http-spec's conversion of an OpenAPI schema to JSON Schema (it converts subschemas too, and sets `$schema`). */
export const convertToJsonSchema = (
  requireSpec('@stoplight/http-spec/oas') as { convertToJsonSchema(document: object, schema: object): object }
).convertToJsonSchema;
export const validators = require('@stoplight/prism-http/dist/validator/index.js') as {
  validateInput: Validator;
  validateSecurity: Validator;
  validateOutput: (opts: {
    resource: IHttpOperation;
    element: { statusCode: number; headers: Record<string, string>; body: unknown };
  }) => Either<Diagnostic[], unknown>;
};

/** An fp-ts Option, as Prism's schema helpers return it. */
export type Option<T> = { _tag: 'None' } | { _tag: 'Some'; value: T };

/** The parts Prism's body validation is built from, for JSON bodies validated without its plumbing. */
export const bodyParts = {
  /** Runs Prism's cached ajv function for a schema; `Some(findings)` when the value does not fit. */
  validateAgainstSchema: (
    require('@stoplight/prism-http/dist/validator/validators/utils.js') as {
      validateAgainstSchema(
        value: unknown,
        schema: object,
        coerce: boolean,
        context: number,
        prefix: string,
        bundle: unknown,
      ): Option<Diagnostic[]>;
    }
  ).validateAgainstSchema,
  /** `[boundary, essence]` of a Content-Type header (throws on a malformed one, as Prism does). */
  parseMIMEHeader: (
    require('@stoplight/prism-http/dist/validator/validators/headers.js') as {
      parseMIMEHeader(header: string): [string | undefined, string];
    }
  ).parseMIMEHeader,
  wildcardMediaTypeMatch: (
    require('@stoplight/prism-http/dist/validator/utils/wildcardMediaTypeMatch.js') as {
      wildcardMediaTypeMatch(a: string, b: string): boolean;
    }
  ).wildcardMediaTypeMatch,
  stripReadOnlyProperties: (
    require('@stoplight/prism-http/dist/utils/filterRequiredProperties.js') as {
      stripReadOnlyProperties(schema: object): Option<object>;
    }
  ).stripReadOnlyProperties,
  /** Output bodies are checked without write-only properties, as Prism checks its answers. */
  stripWriteOnlyProperties: (
    require('@stoplight/prism-http/dist/utils/filterRequiredProperties.js') as {
      stripWriteOnlyProperties(schema: object): Option<object>;
    }
  ).stripWriteOnlyProperties,
  // Prism's own dependency, loaded from where Prism finds it.
  mergeAllOf: createRequire(require.resolve('@stoplight/prism-http/package.json'))(
    '@stoplight/json-schema-merge-allof',
  ) as (schema: object, options: object) => object,
};

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

// Prism's own ajv and formats, loaded from where Prism finds them.
const fromPrism = createRequire(require.resolve('@stoplight/prism-http/package.json'));
const dateTime = require('@stoplight/prism-http/dist/validator/validators/dateTime.js') as {
  fmtDef(validate: unknown, compare: unknown): object;
  date_time: unknown;
  compareDateTime: unknown;
};
type AjvClass = new (options: object) => SchemaCompiler & { addFormat(name: string, format: object): unknown };
const AJV: Record<'default' | 'draft2019_09' | 'draft2020_12', AjvClass> = {
  default: (fromPrism('ajv') as { default: AjvClass }).default,
  draft2019_09: (fromPrism('ajv/dist/2019') as { default: AjvClass }).default,
  draft2020_12: (fromPrism('ajv/dist/2020') as { default: AjvClass }).default,
};
const addFormats = (fromPrism('ajv-formats') as { default: (ajv: object) => void }).default;

/**
 * An ajv of the caller's own, set up as the one Prism checks bodies with (its options, formats and
 * date-time), for the JSON Schema draft a schema's `$schema` names. Prism's own instance keeps every schema it
 * ever compiled; one of these lets a caller bound what it keeps (`removeSchema`), or drop it whole.
 */
export function createSchemaCompiler(draft: keyof typeof AJV): SchemaCompiler {
  const ajv = new AJV[draft]({
    allErrors: true,
    allowUnionTypes: true,
    allowMatchingProperties: true,
    strict: false,
    coerceTypes: false,
    logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
  });
  addFormats(ajv);
  ajv.addFormat('date-time', dateTime.fmtDef(dateTime.date_time, dateTime.compareDateTime));
  return ajv;
}

/** Turns ajv's failures into Prism's findings, with Prism's messages (`Response body must be object`). */
export const convertAjvErrors = (
  require('@stoplight/prism-http/dist/validator/validators/utils.js') as {
    convertAjvErrors(errors: object[], severity: number, context: number, prefix: string): Diagnostic[];
  }
).convertAjvErrors;
