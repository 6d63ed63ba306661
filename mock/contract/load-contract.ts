// Reads an OpenAPI document once and hands out its operations, ready for routing, validation and generation.
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { IHttpOperation } from '@stoplight/types';
import { parse as parseYaml } from 'yaml';
import { readOperations } from '../prism/prism-adapter.js';
import { withBasePath } from '../plan/server-paths.js';

/** One operation of the contract. */
export interface Operation {
  /** The operationId, or `METHOD /path` when the contract gives none. */
  id: string;
  /** Lower-case HTTP method. */
  method: string;
  /** The path template, e.g. `/members/{member_id}/passes`. */
  path: string;
  /** Prism's view of the operation: schemas dereferenced, OpenAPI 3.0 turned into JSON Schema. */
  spec: IHttpOperation;
}

/** A loaded contract: what the mock serves. No mock changes it, so many mocks may serve one. */
export interface Contract {
  /** The file or URL it was read from. */
  source: string;
  title: string;
  version: string;
  operations: Operation[];
  /**
   * Work done once for this contract and shared by every mock that serves it: request body schemas made
   * ready for validation, by schema. (Prism compiles each schema object once for the whole process: mocks
   * of one contract must hand it the same objects.)
   */
  readonly prepared: WeakMap<object, unknown>;
}

/** Why a contract could not be served, in words for the person who named it. */
export class ContractError extends Error {
  override name = 'ContractError';
}

/**
 * Loads an OpenAPI 3.x (or 2.0) document from a path or URL, parsing it every time (about 20 ms for the
 * bundled contract once warm): to start many mocks of one contract, load it once and hand the `Contract`
 * to each (`startMock({ contract })`, `createApp(contract)`). A contract is never changed by a mock.
 * @example const contract = await loadContract('contracts/membership.openapi.yaml');
 */
export async function loadContract(source: string, cwd = process.cwd()): Promise<Contract> {
  const isUrl = /^https?:\/\//i.test(source);
  return parseContract(isUrl || isAbsolute(source) ? source : resolve(cwd, source));
}

async function parseContract(location: string): Promise<Contract> {
  const document = await readDocument(location);
  const info = (document.info ?? {}) as { title?: unknown; version?: unknown };
  let specs: IHttpOperation[];
  try {
    // A document read from a URL is handed over already fetched: Prism's own download passes a polyfilled
    // AbortSignal that Node 24's fetch refuses. (Relative $refs to other remote files are not followed then.)
    specs = withBasePath(await readOperations(/^https?:\/\//i.test(location) ? document : location), document);
  } catch (error) {
    throw new ContractError(`The contract ${location} cannot be served: ${(error as Error).message}`);
  }
  if (specs.length === 0) throw new ContractError(`The contract ${location} has no operation to serve.`);
  return {
    source: location,
    title: typeof info.title === 'string' ? info.title : 'Untitled API',
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

async function readDocument(location: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = /^https?:\/\//i.test(location) ? await (await fetch(location)).text() : await readFile(location, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new ContractError(`Cannot read the contract ${location}: ${reason}`);
  }
  let document: unknown;
  try {
    document = parseYaml(text, { maxAliasCount: 1000 });
  } catch (error) {
    throw new ContractError(`The contract ${location} is not valid YAML or JSON: ${(error as Error).message}`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ContractError(`The contract ${location} is not an OpenAPI document (expected an object at the top).`);
  }
  const record = document as Record<string, unknown>;
  if (typeof record.openapi !== 'string' && typeof record.swagger !== 'string') {
    throw new ContractError(`The contract ${location} is not an OpenAPI document: it has no "openapi" version field.`);
  }
  return record;
}
