// Turns a chosen response into a reply: a named example, a contract example, or a generated body, with headers.
import type { IHttpHeaderParam, IMediaTypeContent } from '@stoplight/types';
import type { BodyGenerator } from '../generate/generate-body.js';
import { sampleStatic, SchemaTooComplexError } from '../generate/sample-static.js';
import { problem } from '../http/problems.js';
import { problemReply, XML_TYPE, type Reply } from '../http/reply.js';
import { toXml } from '../http/to-xml.js';
import type { ResponseChoice } from '../plan/choose-response.js';
import { echoBody, type BodyEcho } from '../plan/path-echo.js';
import { isObject } from '../schema/schema-facts.js';
import { answeredBundle, answeredSchema } from '../prism/schema-check.js';

/** What to render: the chosen response, how, and the key generated values are drawn with. */
export interface Rendering {
  operationId: string;
  choice: ResponseChoice;
  /** Generate success bodies (`true`), or serve the contract's examples first. */
  dynamic: boolean;
  /** See {@link generationKey}. */
  key: string;
  /** The operation's `__bundled__`: where Prism's loader keeps the recursive parts of its schemas. */
  bundle?: unknown;
  /** Where the path's parameters go in the body (see path-echo.ts); none when absent. */
  echo?: BodyEcho;
  /** The record's id field, for an operation of an inferred collection (a create's `Location` names it). */
  idField?: string;
  /** The request's path names the record already (a PUT that created it): a `Location` is that path itself. */
  locatedAtPath?: boolean;
}

/** Facts about the request that make rendered bodies and headers consistent with it. */
export interface RenderRequest {
  path: string;
  pathParams: Record<string, string>;
  /** The path as the client sent it (the servers' base path in it, `/v1/charges`): a `Location` points there. */
  sentPath?: string;
}

/**
 * Renders a chosen response: `stored` when state supplies the body; otherwise success bodies are generated
 * unless `dynamic` is off (then examples come first, else the schema is sampled as Prism's static mode
 * does), and error bodies serve the contract's example when it has one. The path's parameters go into a
 * generated body where `echo` says: the record an item path names, references to its parents, only with values
 * that fit (an example is sent as written). A body that
 * cannot be made (a schema too complex to sample) or sent (an object under a text media type) is a 500 problem,
 * as Prism answers.
 * @example renderResponse(generator, { operationId: 'getPass', choice, dynamic: true, key }, { path, pathParams })
 */
export function renderResponse(
  generator: BodyGenerator,
  rendering: Rendering,
  request: RenderRequest,
  stored?: unknown,
): Reply {
  const { choice, dynamic, key, bundle } = rendering;
  const { status, content } = choice;
  // Error bodies prefer the contract's example.
  const source = { key, bundle, dynamic, preferExample: !dynamic || status >= 400 };
  let body: unknown = stored;
  let example: object | undefined;
  try {
    if (stored === undefined && content) {
      ({ body, example } = renderBody(generator, content, choice, source));
      // A generated body agrees with the path; the contract's example is sent as it is written, as Prism does.
      if (rendering.echo && example === undefined) echoBody(body, rendering.echo, request.pathParams);
    }
  } catch (error) {
    if (!(error instanceof SchemaTooComplexError)) throw error;
    return failure(
      'Schema too complex',
      'Unable to generate body for response. The schema is too complex to generate.',
    );
  }
  const mediaType = content?.mediaType ?? '';
  if (typeof body === 'object' && body !== null && TEXT_TYPE.test(mediaType) && !XML_TYPE.test(mediaType)) {
    return failure('Cannot serialise complex objects as text', `The ${mediaType} body is an object or a list.`);
  }
  const headers: Record<string, string> = {};
  for (const header of choice.response.headers ?? []) {
    const value = renderHeader(generator, header, body, request, `${key}|header:${header.name}`, rendering);
    if (value !== undefined) headers[header.name] = value;
  }
  const reply: Reply = {
    status,
    headers,
    ...(content ? { contentType: content.mediaType, body } : {}),
    ...(example ? { example } : {}),
  };
  const root = xmlName(content?.schema);
  if (root && body !== undefined && XML_TYPE.test(mediaType)) reply.text = toXml(body, root);
  return reply;
}

/** Headers the server sets from the body it sends: a documented value would contradict it (or double it). */
const SERVER_SET = new Set(['content-type', 'content-length', 'transfer-encoding', 'content-encoding']);

/** `text/plain`, `text/html`, `text/csv`...: media types whose body is sent as it is, so it must be text. */
const TEXT_TYPE = /^text\//i;

function failure(title: string, detail: string): Reply {
  return problemReply(problem('internal', detail, { title }));
}

/** The root element an XML body is named by, when its schema names one (`xml: { name: Pet }`). */
function xmlName(schema: unknown): string | undefined {
  const xml = isObject(schema) ? schema.xml : undefined;
  return isObject(xml) && typeof xml.name === 'string' && xml.name !== '' ? xml.name : undefined;
}

/**
 * The key a generated body is drawn with: the request, so the same GET gives the same body; plus the
 * occurrence number for non-idempotent methods, so each POST gives a new one.
 */
export function generationKey(
  operationId: string,
  choice: ResponseChoice,
  request: { path: string; rawQuery: string },
  occurrence?: number,
): string {
  const base = `${operationId}|${choice.status}|${choice.content?.mediaType ?? ''}|${request.path}?${request.rawQuery}`;
  return occurrence === undefined ? base : `${base}|#${occurrence}`;
}

/** The body, and the contract's example it was copied from, if it was. */
function renderBody(
  generator: BodyGenerator,
  content: IMediaTypeContent,
  choice: ResponseChoice,
  { key, bundle, dynamic, preferExample }: { key: string; bundle: unknown; dynamic: boolean; preferExample: boolean },
): { body: unknown; example?: object } {
  const examples = content.examples ?? [];
  const copy = (example: (typeof examples)[number] | undefined) =>
    example && 'value' in example ? { body: structuredClone(example.value), example } : undefined;
  const named = copy(examples.find((e) => e.key === choice.exampleKey));
  if (named) return named;
  const example = copy(examples.find((e) => e.key === 'default') ?? examples[0]);
  if (preferExample && example) return example;
  if (content.schema === undefined) return example ?? { body: undefined };
  // Drawn as answers show it: without write-only fields (a `password`), as Prism draws it, at any depth.
  const schema = answeredSchema(content.schema);
  const answered = answeredBundle(bundle as Record<string, unknown> | undefined);
  const body = dynamic ? generator.generate(schema, key, answered) : sampleStatic(schema, answered);
  // A generated problem says the status it was sent with.
  if (choice.status >= 400 && isObject(body) && typeof body.status === 'number') body.status = choice.status;
  return { body };
}

function renderHeader(
  generator: BodyGenerator,
  header: IHttpHeaderParam,
  body: unknown,
  request: RenderRequest,
  key: string,
  { idField = 'id', locatedAtPath }: Pick<Rendering, 'idField' | 'locatedAtPath'>,
): string | undefined {
  if (SERVER_SET.has(header.name.toLowerCase())) return undefined;
  const id = isObject(body) ? body[idField] : undefined;
  if (header.name.toLowerCase() === 'location' && (typeof id === 'string' || typeof id === 'number')) {
    const path = (request.sentPath ?? request.path).replace(/\/$/, '');
    // A PUT that created the record its path names (`/things/lamp`) points at that path itself.
    return locatedAtPath ? path : `${path}/${encodeURIComponent(id)}`;
  }
  const example = header.examples?.find((e) => 'value' in e);
  if (example && 'value' in example) return headerText(example.value);
  const schema = header.schema as { examples?: unknown[]; default?: unknown } | undefined;
  if (schema?.examples?.length) return headerText(schema.examples[0]);
  if (schema?.default !== undefined) return headerText(schema.default);
  // Every documented header is sent, required or not (Swagger 2 cannot say `required`), as Prism sends them;
  // one without a schema has nothing a value could be drawn from.
  if (!schema) return undefined;
  return headerText(generator.generate(schema, key));
}

/**
 * A header's value as the `simple` style a header is read with: a list's items and an object's names and
 * values joined with commas (`a,b`; `k,v`), so that it fits the schema it was drawn from once read back.
 */
function headerText(value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => headerText(item)).join(',');
  if (isObject(value))
    return Object.entries(value)
      .flatMap(([name, item]) => [name, headerText(item)])
      .join(',');
  return String(value);
}
