// Turns a chosen response into a reply: a named example, a contract example, or a generated body, with headers.
import type { IHttpHeaderParam, IMediaTypeContent } from '@stoplight/types';
import type { BodyGenerator } from '../generate/generate-body.js';
import { sampleStatic, SchemaTooComplexError } from '../generate/sample-static.js';
import { problem } from '../http/problems.js';
import { problemReply, XML_TYPE, type Reply } from '../http/reply.js';
import { toXml } from '../http/to-xml.js';
import type { ResponseChoice } from '../plan/choose-response.js';
import { mergedSchema, valueFits } from '../prism/schema-check.js';
import { isObject, propertiesOf, type JsonObject } from '../schema/schema-facts.js';

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
}

/** Facts about the request that make rendered bodies and headers consistent with it. */
export interface RenderRequest {
  path: string;
  pathParams: Record<string, string>;
}

/**
 * Renders a chosen response: `stored` when state supplies the body; otherwise success bodies are generated
 * unless `dynamic` is off (then examples come first, else the schema is sampled as Prism's static mode
 * does), and error bodies serve the contract's example when it has one. Generated fields named like a path
 * parameter take its value. A body that cannot be made (a schema too complex to sample) or sent (an object
 * under a text media type) is a 500 problem, as Prism answers.
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
      body = echoPathParams(body, request.pathParams, content.schema, bundle);
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
    const value = renderHeader(generator, header, body, request, `${key}|header:${header.name}`);
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
const SERVER_SET = new Set(['content-type', 'content-length', 'transfer-encoding']);

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
  const body = dynamic ? generator.generate(content.schema, key, bundle) : sampleStatic(content.schema, bundle);
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
): string | undefined {
  if (SERVER_SET.has(header.name.toLowerCase())) return undefined;
  if (header.name.toLowerCase() === 'location' && isObject(body) && typeof body.id === 'string') {
    return `${request.path.replace(/\/$/, '')}/${encodeURIComponent(body.id)}`;
  }
  const example = header.examples?.find((e) => 'value' in e);
  if (example && 'value' in example) return String(example.value);
  const schema = header.schema as { examples?: unknown[]; default?: unknown } | undefined;
  if (schema?.examples?.length) return String(schema.examples[0]);
  if (schema?.default !== undefined) return String(schema.default);
  if (!schema || !header.required) return undefined;
  const value = generator.generate(schema, key);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Generated bodies agree with the path: a field named like a path parameter (`member_id`) gets its value, in the
 * body and in the items of its lists, where the field's schema allows that value (a `user_id` that is a uuid
 * keeps its uuid for `/users/abc`).
 */
function echoPathParams(body: unknown, pathParams: Record<string, string>, schema: unknown, bundle: unknown): unknown {
  if (Object.keys(pathParams).length === 0) return body;
  const echo = (record: unknown, recordSchema: unknown) => {
    if (!isObject(record)) return;
    for (const [name, value] of Object.entries(pathParams)) {
      if (typeof record[name] !== 'string') continue;
      const field = fieldSchemas(recordSchema, name, bundle);
      if (field && field.every((part) => valueFits(value, part, bundle))) record[name] = value;
    }
  };
  // The schema of a list's items: `true` (anything) when nothing constrains them, `undefined` when not known.
  const itemsOf = (list: JsonObject[] | undefined) =>
    list?.length === 0 ? true : list?.length === 1 ? (list[0]!.items ?? true) : undefined;
  echo(body, schema);
  if (isObject(body))
    for (const [name, value] of Object.entries(body))
      if (Array.isArray(value)) {
        const items = itemsOf(fieldSchemas(schema, name, bundle));
        value.forEach((item) => echo(item, items));
      }
  const own = ownSchema(schema, bundle);
  if (Array.isArray(body)) body.forEach((item) => echo(item, own ? (own.items ?? true) : undefined));
  return body;
}

/** A schema as an object of its own: its `allOf` merged, a `$ref` into the operation's bundle followed. */
function ownSchema(schema: unknown, bundle: unknown): JsonObject | undefined {
  let own = schema;
  const ref = isObject(own) && typeof own.$ref === 'string' ? /^#\/__bundled__\/([^/]+)$/.exec(own.$ref) : null;
  if (ref && isObject(bundle)) own = bundle[decodeURIComponent(ref[1]!)];
  return isObject(own) ? mergedSchema(own) : undefined;
}

/**
 * The schemas a field of an object of `schema` must fit: its property's (in each `oneOf`/`anyOf` branch that
 * names it), else `additionalProperties`'; `[]` when any value fits it (`schema` is `true`, or says nothing of
 * it), `undefined` when it cannot be there or is not known.
 */
function fieldSchemas(schema: unknown, name: string, bundle: unknown): JsonObject[] | undefined {
  if (schema === true) return [];
  const own = ownSchema(schema, bundle);
  if (!own) return undefined;
  const declared = propertiesOf(own)[name];
  if (declared !== undefined) return isObject(declared) ? [declared] : undefined;
  const branches = [own.oneOf, own.anyOf].flatMap((list) => (Array.isArray(list) ? list : []));
  const named = branches.map((branch) => propertiesOf(ownSchema(branch, bundle))[name]).filter((p) => p !== undefined);
  if (named.length > 0) return named.every(isObject) ? named : undefined;
  if (own.additionalProperties === false) return undefined;
  return isObject(own.additionalProperties) ? [own.additionalProperties] : [];
}
