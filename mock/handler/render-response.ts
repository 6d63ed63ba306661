// Turns a chosen response into a body and headers: a named example, a contract example, or a generated body.
import type { IHttpHeaderParam, IMediaTypeContent } from '@stoplight/types';
import type { Operation } from '../contract/load-contract.js';
import type { ResponseChoice } from '../respond/choose-response.js';
import type { MockContext } from './mock-context.js';

/** What to send: status, headers, and a body when the response has one. */
export interface Rendered {
  status: number;
  headers: Record<string, string>;
  contentType?: string;
  body?: unknown;
}

/** Facts about the request that make generated bodies repeatable and consistent with it. */
export interface RenderRequest {
  method: string;
  path: string;
  rawQuery: string;
}

const IDEMPOTENT = new Set(['get', 'head', 'put', 'delete', 'options']);

/**
 * Renders a chosen response. Success bodies are generated unless `dynamic` is off (then examples come
 * first); error bodies serve the contract's example when it has one. A generated body is keyed by the
 * request, so the same GET gives the same body; each POST gets a new one.
 */
export function renderResponse(context: MockContext, operation: Operation, choice: ResponseChoice, dynamic: boolean, request: RenderRequest): Rendered {
  const { status, content } = choice;
  const key = generationKey(context, operation, choice, request);
  // Static bodies depend only on the operation and status; error bodies prefer the contract's example.
  const source = dynamic ? { key, preferExample: status >= 400 } : { key: `static|${operation.id}|${status}`, preferExample: true };
  const body = content ? renderBody(context, content, choice, source) : undefined;
  const headers: Record<string, string> = {};
  for (const header of choice.response.headers ?? []) {
    const value = renderHeader(context, header, body, request, `${key}|header:${header.name}`);
    if (value !== undefined) headers[header.name] = value;
  }
  return { status, headers, ...(content ? { contentType: content.mediaType, body } : {}) };
}

function renderBody(context: MockContext, content: IMediaTypeContent, choice: ResponseChoice, { key, preferExample }: { key: string; preferExample: boolean }): unknown {
  const examples = content.examples ?? [];
  const named = examples.find((e) => e.key === choice.exampleKey);
  if (named && 'value' in named) return structuredClone(named.value);
  const example = examples.find((e) => e.key === 'default') ?? examples[0];
  if (preferExample && example && 'value' in example) return structuredClone(example.value);
  if (content.schema === undefined) return example && 'value' in example ? structuredClone(example.value) : undefined;
  const body = context.generator.generate(content.schema, key);
  // A generated problem says the status it was sent with.
  if (choice.status >= 400 && isRecord(body) && typeof body.status === 'number') body.status = choice.status;
  return body;
}

function renderHeader(context: MockContext, header: IHttpHeaderParam, body: unknown, request: RenderRequest, key: string): string | undefined {
  if (header.name.toLowerCase() === 'content-type') return undefined;
  if (header.name.toLowerCase() === 'location' && isRecord(body) && typeof body.id === 'string') {
    return `${request.path.replace(/\/$/, '')}/${encodeURIComponent(body.id)}`;
  }
  const example = header.examples?.find((e) => 'value' in e);
  if (example && 'value' in example) return String(example.value);
  const schema = header.schema as { examples?: unknown[]; default?: unknown } | undefined;
  if (schema?.examples?.length) return String(schema.examples[0]);
  if (schema?.default !== undefined) return String(schema.default);
  if (!schema || !header.required) return undefined;
  const value = context.generator.generate(schema, key);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function generationKey(context: MockContext, operation: Operation, choice: ResponseChoice, request: RenderRequest): string {
  const base = `${operation.id}|${choice.status}|${choice.content?.mediaType ?? ''}|${request.path}?${request.rawQuery}`;
  if (IDEMPOTENT.has(request.method.toLowerCase())) return base;
  const n = (context.occurrences.get(operation.id) ?? 0) + 1;
  context.occurrences.set(operation.id, n);
  return `${base}|#${n}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
