// A contract: its operations, made once from its document, ready for routing, validation and generation.
import type { IHttpOperation } from '@stoplight/types';
import { convertSchemaKeywords, readOperations, type DocumentKind } from '../prism/prism-adapter.js';
import { bundleReferences, inlineReferences } from './bundle-references.js';
import { ContractError } from './contract-error.js';
import { schemaHolders } from './operation-schemas.js';
import type { DocumentSource } from './document-source.js';
import { resolveSchemas } from './resolve-schemas.js';
import { withBasePath } from './server-paths.js';

export { ContractError };

/** One operation of the contract. */
export interface Operation {
  /** The operationId, or `METHOD /path` when the contract gives none. */
  id: string;
  /** Lower-case HTTP method. */
  method: string;
  /** The path template, e.g. `/members/{member_id}/passes`. */
  path: string;
  /**
   * Prism's view of the operation: references resolved, OpenAPI 3.0 turned into JSON Schema; a schema that
   * contains itself is a `#/__bundled__/…` reference into the operation's `__bundled__`, as Prism gives it.
   */
  spec: IHttpOperation;
  /** With several APIs in one mock (see combine-contracts.ts): the name of the API the operation is of. */
  api?: string;
}

/** A loaded contract: what the mock serves. No mock changes it, so many mocks may serve one. */
export interface Contract {
  /** The file or URL it was read from. */
  source: string;
  title: string;
  version: string;
  operations: Operation[];
  /**
   * The local files its `$ref`s read beside `source` (none read from a URL, nor for a contract given as an
   * object): what a watch of the contract watches too.
   */
  readonly files?: readonly string[];
  /**
   * Work done once for this contract and shared by every mock that serves it: request body schemas made
   * ready for validation, by schema. (Prism compiles each schema object once for the whole process: mocks
   * of one contract must hand it the same objects.)
   */
  readonly prepared: WeakMap<object, unknown>;
}

/** What a contract built from a document given as an object (not read from a file or URL) names as its source. */
export const CONTRACT_OBJECT = 'given as an object';

/** Whether `value` is a loaded contract (loadContract's, buildContract's) rather than a document. */
export function isContract(value: unknown): value is Contract {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as Partial<Contract>).operations) &&
    (value as Partial<Contract>).prepared !== undefined
  );
}

/** Milliseconds each step of a load took: reading and parsing, references, schemas, Prism's operations. */
export interface LoadSteps {
  read?: number;
  references?: number;
  schemas?: number;
  operations?: number;
}

/**
 * The contract in the document read from `location`, with the files and URLs it refers to read from
 * `documents`; `steps` says how long each step took.
 * @throws ContractError saying what is wrong, and where
 */
export async function buildContract(
  document: unknown,
  location: string,
  documents: DocumentSource,
  steps: LoadSteps = {},
): Promise<Contract> {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ContractError(`The contract ${location} is not an OpenAPI document (expected an object at the top).`);
  }
  const record = document as Record<string, unknown>;
  const kind = kindOf(record, location);
  if (!kind) {
    throw new ContractError(
      `The contract ${location} is neither an OpenAPI document nor a Postman collection: it has no "openapi" ` +
        'version field (nor "swagger": "2.0", nor the "info.name" and "item" list of a Postman collection v2).',
    );
  }
  const specs = withBasePath(await readSpecs(record, kind, location, documents, steps), record);
  const info = (record.info ?? {}) as { title?: unknown; name?: unknown; version?: unknown };
  const title = kind === 'postman' ? info.name : info.title;
  return {
    source: location,
    title: typeof title === 'string' ? title : 'Untitled API',
    version: typeof info.version === 'string' ? info.version : '0.0.0',
    prepared: new WeakMap(),
    operations: specs.map((spec) => ({
      id: spec.iid ?? `${spec.method.toUpperCase()} ${spec.path}`,
      method: spec.method.toLowerCase(),
      path: spec.path,
      spec,
    })),
  };
}

/**
 * What the document is, by its version field: OpenAPI 3.x, Swagger 2.0 or a Postman collection v2.
 * @throws ContractError for a version the mock does not read (OpenAPI 2.0 or 4, Swagger 1.2), which it would
 * otherwise serve as an API of no operations
 */
function kindOf(document: Record<string, unknown>, location: string): DocumentKind | undefined {
  const { openapi, swagger } = document;
  for (const [field, value] of [
    ['openapi', openapi],
    ['swagger', swagger],
  ] as const)
    if (typeof value === 'number')
      throw new ContractError(
        `The contract ${location} has "${field}": ${value}, a number (YAML reads an unquoted 3.0 or 2.0 as one): ` +
          `write the version as text, ${field === 'openapi' ? 'openapi: "3.0.3"' : 'swagger: "2.0"'}.`,
      );
  if (typeof openapi === 'string') {
    if (/^3\.\d+(\.\d+)?(-[\w.]+)?$/.test(openapi)) return 'openapi3';
    throw unreadVersion(location, `"openapi": "${openapi}"`, openapi === '2.0' ? SWAGGER_HINT : '');
  }
  if (typeof swagger === 'string') {
    if (swagger === '2.0') return 'swagger2';
    throw unreadVersion(location, `"swagger": "${swagger}"`, UPGRADE_HINT);
  }
  if (document.swaggerVersion !== undefined)
    throw unreadVersion(location, `Swagger ${JSON.stringify(document.swaggerVersion)}`, UPGRADE_HINT);
  const info = document.info as { name?: unknown } | undefined;
  if (Array.isArray(document.item) && typeof info?.name === 'string') return 'postman';
  return undefined;
}

const SWAGGER_HINT = ' A Swagger 2.0 document says "swagger": "2.0".';
const UPGRADE_HINT = ' Convert it to OpenAPI 3 first (swagger2openapi, or api-spec-converter for 1.x).';

/** The error of a document of a version the mock does not read, naming the ones it does. */
function unreadVersion(location: string, version: string, hint: string): ContractError {
  return new ContractError(
    `The contract ${location} is ${version}, a version the mock does not read: it reads OpenAPI 3.x, Swagger 2.0 ` +
      `and Postman collections v2.${hint}`,
  );
}

/** Prism's operations of the document, references resolved (a Postman collection has none). */
async function readSpecs(
  document: Record<string, unknown>,
  kind: DocumentKind,
  location: string,
  documents: DocumentSource,
  steps: LoadSteps,
): Promise<IHttpOperation[]> {
  if (kind === 'postman') return timed(steps, 'operations', () => readPostman(document));
  const swagger2 = kind === 'swagger2';
  const references = await timed(steps, 'references', () => bundleReferences(document, location, swagger2, documents));
  try {
    // A declared jsonSchemaDialect keeps schemas as they are, as Prism does; otherwise OpenAPI keywords are converted.
    const convert = typeof document.jsonSchemaDialect === 'string' ? undefined : convertSchemaKeywords;
    const schemas = timed(steps, 'schemas', () => resolveSchemas(document, references, convert));
    inlineReferences(document, references);
    return timed(steps, 'operations', () => {
      const specs = readOperations(document, kind);
      for (const spec of specs) {
        const holders = schemaHolders(spec);
        for (const holder of holders) holder.schema = schemas.finish(holder.schema);
        const bundle = schemas.bundleFor(holders.map((holder) => holder.schema));
        if (bundle) Object.assign(spec, { __bundled__: bundle });
      }
      return specs;
    });
  } catch (error) {
    if (error instanceof ContractError) throw error;
    throw new ContractError(`The contract ${location} cannot be served: ${(error as Error).message}`);
  }
}

/**
 * A Postman collection's operations. Postman's library gives an item without an `id` a random one: such an
 * operation is named by method and path instead, the same on every load.
 */
function readPostman(collection: Record<string, unknown>): IHttpOperation[] {
  const ids = new Set<unknown>();
  const collect = (items: unknown): void => {
    if (!Array.isArray(items)) return;
    for (const item of items as Array<{ id?: unknown; item?: unknown }>) {
      ids.add(item?.id);
      collect(item?.item);
    }
  };
  collect(collection.item);
  return readOperations(collection, 'postman').map(({ iid, ...spec }) => (ids.has(iid) ? { ...spec, iid } : spec));
}

export function timed<T>(steps: LoadSteps, step: keyof LoadSteps, run: () => T): T {
  const start = performance.now();
  const result = run();
  if (result instanceof Promise) {
    return result.finally(() => (steps[step] = performance.now() - start)) as T;
  }
  steps[step] = performance.now() - start;
  return result;
}
