// Turns a chosen response into a body and headers: a named example, a contract example, or a generated body.
import type { IHttpHeaderParam, IMediaTypeContent } from '@stoplight/types';
import type { Operation } from '../contract/load-contract.js';
import type { Violation } from '../problems/problems.js';
import type { ResponseChoice } from '../respond/choose-response.js';
import type { MockContext } from './mock-context.js';

/** What to send: status, headers, and a body when the response has one. */
export interface Rendered {
  status: number;
  headers: Record<string, string>;
  contentType?: string;
  body?: unknown;
  /** How the request broke the contract, for the journal (a refusal's reasons). */
  violations?: Violation[];
}

/** Facts about the request that make generated bodies repeatable and consistent with it. */
export interface RenderRequest {
  path: string;
  rawQuery: string;
  pathParams: Record<string, string>;
}

/**
 * Renders a chosen response: `stored` when state supplies the body; otherwise success bodies are generated
 * with `key` unless `dynamic` is off (then examples come first), and error bodies serve the contract's
 * example when it has one.
 */
export function renderResponse(
  context: MockContext,
  operation: Operation,
  choice: ResponseChoice,
  dynamic: boolean,
  request: RenderRequest,
  key: string,
  stored?: unknown,
): Rendered {
  const { status, content } = choice;
  // Static bodies depend only on the operation and status; error bodies prefer the contract's example.
  const source = dynamic
    ? { key, preferExample: status >= 400 }
    : { key: `static|${operation.id}|${status}`, preferExample: true };
  const body =
    stored ?? (content ? echoPathParams(renderBody(context, content, choice, source), request.pathParams) : undefined);
  const headers: Record<string, string> = {};
  for (const header of choice.response.headers ?? []) {
    const value = renderHeader(context, header, body, request, `${key}|header:${header.name}`);
    if (value !== undefined) headers[header.name] = value;
  }
  return { status, headers, ...(content ? { contentType: content.mediaType, body } : {}) };
}

function renderBody(
  context: MockContext,
  content: IMediaTypeContent,
  choice: ResponseChoice,
  { key, preferExample }: { key: string; preferExample: boolean },
): unknown {
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

function renderHeader(
  context: MockContext,
  header: IHttpHeaderParam,
  body: unknown,
  request: RenderRequest,
  key: string,
): string | undefined {
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

/** Generated bodies agree with the path: a field named like a path parameter (`member_id`) gets its value. */
function echoPathParams(body: unknown, pathParams: Record<string, string>): unknown {
  const echo = (record: unknown) => {
    if (!isRecord(record)) return;
    for (const [name, value] of Object.entries(pathParams)) if (typeof record[name] === 'string') record[name] = value;
  };
  echo(body);
  if (isRecord(body)) for (const value of Object.values(body)) if (Array.isArray(value)) value.forEach(echo);
  if (Array.isArray(body)) body.forEach(echo);
  return body;
}

/**
 * The key a generated body is drawn with: the request, so the same GET gives the same body; plus the
 * occurrence number for non-idempotent methods, so each POST gives a new one.
 */
export function generationKey(
  operation: Operation,
  choice: ResponseChoice,
  request: RenderRequest,
  occurrence?: number,
): string {
  const base = `${operation.id}|${choice.status}|${choice.content?.mediaType ?? ''}|${request.path}?${request.rawQuery}`;
  return occurrence === undefined ? base : `${base}|#${occurrence}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
