// An independent check of responses against the contract: ajv over the contract's own schemas, not Prism's.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { parse } from 'yaml';

// ajv and ajv-formats are CommonJS modules whose export is the function itself.
const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv').default;
const Ajv2020 = require('ajv/dist/2020') as typeof import('ajv/dist/2020.js').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

type Json = Record<string, any>;

/**
 * Validates a status and body against what an OpenAPI document says an operation may answer. A 3.0 (or
 * Swagger 2) document's schemas are read as draft-07, a 3.1 document's as JSON Schema 2020-12, its dialect:
 * read as draft-07, a keyword 2020-12 added (`unevaluatedProperties: false`, which closes a schema with
 * `allOf`) would be ignored, and an answer it forbids let through.
 */
export interface ContractValidator {
  /** Returns the list of problems; empty when the response conforms. */
  check(operationId: string, status: number, contentType: string | undefined, body: unknown): string[];
  /** Returns the list of problems of a request body; empty when the operation documents it as sent. */
  checkRequest(operationId: string, contentType: string, body: unknown): string[];
  /** Whether the contract documents this status (exactly, as `NXX`, or through `default`) for the operation. */
  documents(operationId: string, status: number): boolean;
  /** Validates against a named component schema. */
  checkSchema(name: string, value: unknown): string[];
}

export function createContractValidator(path: string): ContractValidator {
  const document = toJsonSchemaDialect(parse(readFileSync(path, 'utf8'))) as Json;
  const draft2020 = typeof document.openapi === 'string' && document.openapi.startsWith('3.1');
  const ajv = draft2020 ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'contract' });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (pointer: string) => {
    const hit = compiled.get(pointer);
    if (hit) return hit;
    const fn = ajv.compile({ $ref: `contract#${pointer}` });
    compiled.set(pointer, fn);
    return fn;
  };
  const operations = new Map<string, { pointer: string; op: Json }>();
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (op && typeof op === 'object' && op.operationId)
        operations.set(op.operationId, { pointer: `/paths/${escape(path)}/${method}`, op });
    }
  }
  // A property a closed schema forbids is named: ajv's message alone does not say which.
  const errorsOf = (fn: ValidateFunction) =>
    (fn.errors ?? []).map((e) => {
      const name = e.params.additionalProperty ?? e.params.unevaluatedProperty;
      const extra = name === undefined ? '' : ` '${String(name)}'`;
      return `${e.instancePath || '/'} ${e.message}${extra}`;
    });

  return {
    check(operationId, status, contentType, body) {
      const found = operations.get(operationId);
      if (!found) return [`no operation ${operationId} in the contract`];
      // OpenAPI 3.1 lets an operation document no response at all.
      const responses = (found.op.responses ?? {}) as Json;
      const code =
        String(status) in responses
          ? String(status)
          : `${String(status)[0]}XX` in responses
            ? `${String(status)[0]}XX`
            : 'default';
      let response = responses[code];
      if (!response) return [`status ${status} is not documented for ${operationId}`];
      let responsePointer = `${found.pointer}/responses/${code}`;
      if (response.$ref) {
        responsePointer = response.$ref.slice(1);
        response = resolve(document, response.$ref);
      }
      // Swagger 2 gives a response one `schema`, sent as each of the types the operation (or document) produces.
      const produces = (found.op.produces ?? document.produces ?? []) as string[];
      const content =
        document.swagger === undefined
          ? (response.content as Json | undefined)
          : response.schema && produces.length > 0
            ? Object.fromEntries(produces.map((type) => [type, response.schema]))
            : undefined;
      if (!content)
        return body === undefined ||
          body === '' ||
          (typeof body === 'object' && body !== null && Object.keys(body).length === 0)
          ? []
          : [`${operationId} ${status} has no body in the contract, but one was sent`];
      const mediaType = contentType?.split(';')[0]?.trim();
      if (!mediaType || !(mediaType in content))
        return [`${operationId} ${status}: media type ${mediaType} is not one of ${Object.keys(content).join(', ')}`];
      // A media type documented with no schema takes any body.
      if (document.swagger === undefined && (content[mediaType] as Json | null)?.schema === undefined) return [];
      const fn = compile(
        document.swagger === undefined
          ? `${responsePointer}/content/${escape(mediaType)}/schema`
          : `${responsePointer}/schema`,
      );
      return fn(body) ? [] : errorsOf(fn).map((e) => `${operationId} ${status}: ${e}`);
    },
    checkRequest(operationId, contentType, body) {
      const found = operations.get(operationId);
      if (!found) return [`no operation ${operationId} in the contract`];
      let requestBody = found.op.requestBody as Json | undefined;
      if (!requestBody) return [`${operationId} takes no request body in the contract`];
      let pointer = `${found.pointer}/requestBody`;
      if (requestBody.$ref) {
        pointer = requestBody.$ref.slice(1);
        requestBody = resolve(document, requestBody.$ref);
      }
      const mediaType = contentType.split(';')[0]!.trim();
      if (!(mediaType in (requestBody.content ?? {})))
        return [
          `${operationId} request: media type ${mediaType} is not one of ${Object.keys(requestBody.content ?? {}).join(', ')}`,
        ];
      if ((requestBody.content[mediaType] as Json | null)?.schema === undefined) return [];
      const fn = compile(`${pointer}/content/${escape(mediaType)}/schema`);
      return fn(body) ? [] : errorsOf(fn).map((e) => `${operationId} request: ${e}`);
    },
    documents(operationId, status) {
      const responses = (operations.get(operationId)?.op.responses ?? {}) as Json;
      return [String(status), `${String(status)[0]}XX`, 'default'].some((code) => code in responses);
    },
    checkSchema(name, value) {
      const fn = compile(`/components/schemas/${name}`);
      return fn(value) ? [] : errorsOf(fn);
    },
  };
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function resolve(document: Json, ref: string): Json {
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node: Json, key) => node[key], document);
}

/** OpenAPI 3.0 schemas to JSON Schema: `nullable: true` becomes a `null` type. */
function toJsonSchemaDialect(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchemaDialect);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = toJsonSchemaDialect(value);
  if (out.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    delete out.nullable;
  }
  return out;
}
