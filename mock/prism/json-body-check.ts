// Checks JSON request bodies with the parts Prism's body validation is built from (its schema normaliser,
// its cached ajv functions, its messages), without the plumbing around them that cost ~35 µs a request.
import type { IHttpOperation, IMediaTypeContent } from '@stoplight/types';
import { BoundedMemo } from '../lib/bounded-memo.js';
import { isObject, mapSchema, type JsonObject } from '../schema/schema-facts.js';
import { bodyParts, contentFor, type Diagnostic, type PrismRequest } from './prism-modules.js';
import { bundleOf } from '../schema/operation-bundle.js';
import { ERROR, INPUT, schemaFindings } from './schema-check.js';

/** The findings for a request's body, or `undefined` when this check does not handle it (ask Prism whole). */
export type JsonBodyCheck = (request: PrismRequest) => Diagnostic[] | undefined;

const JSON_TYPE = /[/+]json$/i;
/** What Prism's request body step decides from the Content-Type header alone, remembered per header value. */
interface MediaDecision {
  /** `false`: the media type is not one the operation takes (415 when a body came). */
  supported: boolean;
  /** The content the body is checked against, with its schema made ready; `undefined`: none. */
  content?: { schema: object | undefined; json: boolean };
}

/**
 * Builds the check for one operation with a request section, following Prism's `validateInputBody` step by
 * step (required body, then the media type when a body came, then the schema of the content the media
 * type selects). Form and multipart bodies are left to Prism. A parity property test compares the two.
 * @param prepared where schemas made ready are kept, by the contract's schema: the contract's own (see
 *   `Contract.prepared`), so every mock of one contract hands Prism the same objects, compiled once
 */
export function createJsonBodyCheck(spec: IHttpOperation, prepared: WeakMap<object, unknown>): JsonBodyCheck {
  const requestBody = spec.request?.body;
  const contents = requestBody?.contents;
  const bundle = inputBundleOf(bundleOf(spec), prepared);
  const decisions = new BoundedMemo<MediaDecision>(64);
  const schemaOf = ({ schema }: IMediaTypeContent): object | undefined => {
    if (schema === undefined) return undefined;
    if (!prepared.has(schema)) prepared.set(schema, normalise(schema));
    return prepared.get(schema) as object | undefined;
  };
  const decide = (contentType: string | undefined): MediaDecision => {
    const key = contentType ?? '';
    const known = decisions.get(key);
    if (known) return known;
    const mediaType = contentType ? bodyParts.parseMIMEHeader(contentType)[1] : undefined;
    const supported =
      mediaType === undefined ||
      !contents ||
      contents.some((c) => !c.mediaType || bodyParts.wildcardMediaTypeMatch(mediaType, c.mediaType));
    const list = contents ?? [];
    const found = mediaType === undefined ? undefined : contentFor(mediaType, list);
    const content = found ?? list[0];
    const selected = mediaType === undefined || list.length === 0 ? 'random' : mediaType;
    return decisions.set(key, {
      supported,
      content: content && { schema: schemaOf(content), json: selected === 'random' || JSON_TYPE.test(selected) },
    });
  };

  return (request) => {
    const { body, headers } = request;
    if (requestBody?.required && !body) return [missingBody()];
    const length = parseInt(headers['content-length']!) || 0;
    // Without a body the media type says nothing (Prism parses it anyway, and throws on a malformed one).
    if (length === 0 && (body === undefined || body === null)) return [];
    let decision: MediaDecision;
    try {
      decision = decide(headers['content-type']);
    } catch {
      const message = `The Content-Type "${headers['content-type']}" is not a valid media type`;
      return [{ message, code: 415, severity: ERROR }];
    }
    if (length !== 0 && (!requestBody || !decision.supported)) {
      const listed = (contents ?? []).map((c) => c.mediaType);
      const message =
        requestBody && listed.length > 0
          ? `Supported content types: ${listed.join(',')}`
          : 'No supported content types, but request included a non-empty body';
      return [{ message, code: 415, severity: ERROR }];
    }
    if (!requestBody || body === undefined || body === null || !decision.content?.schema) return [];
    if (!decision.content.json) return undefined;
    return schemaFindings(body, decision.content.schema, bundle, INPUT, 'body');
  };
}

/**
 * The schema as Prism validates a request against it (allOf merged, read-only properties taken out), and
 * without `$id`: Prism compiles into one ajv for the whole process, where a second contract object with the
 * same `$id` (the same file loaded twice) would fail to compile, and its bodies would go unchecked.
 */
function normalise(schema: object): object | undefined {
  let merged = schema;
  try {
    merged = bodyParts.mergeAllOf(schema, { deep: true, ignoreAdditionalProperties: true });
  } catch {
    // Prism validates against the schema as it is when allOf cannot be merged.
  }
  const stripped = bodyParts.stripReadOnlyProperties(merged);
  return stripped._tag === 'Some'
    ? (mapSchema(stripped.value, ({ $id: _id, ...node }) => withoutReadOnly(node)) as object)
    : undefined;
}

/**
 * The operation's `__bundled__` (the schemas that contain themselves) as a request is checked against it: each
 * one made ready as a body's schema is, so a read-only field is not asked of a node at any depth of a tree.
 * Made once per bundle, kept beside the contract's prepared schemas.
 */
function inputBundleOf(
  bundle: Record<string, unknown> | undefined,
  prepared: WeakMap<object, unknown>,
): Record<string, unknown> | undefined {
  if (bundle === undefined) return undefined;
  if (!prepared.has(bundle)) {
    const ready = (schema: unknown) => (isObject(schema) ? (normalise(schema) ?? schema) : schema);
    prepared.set(bundle, Object.fromEntries(Object.entries(bundle).map(([name, schema]) => [name, ready(schema)])));
  }
  return prepared.get(bundle) as Record<string, unknown>;
}

/**
 * A schema node without its read-only properties (nor their names in `required`). Prism's strip does not look
 * inside `oneOf`/`anyOf` branches: a `oneOf` of a cat and a dog, each with a required read-only `id`, asked a
 * create for the id the server makes.
 */
function withoutReadOnly(node: JsonObject): JsonObject {
  const properties = node.properties;
  if (!isObject(properties)) return node;
  const readOnly = Object.keys(properties).filter(
    (name) => isObject(properties[name]) && properties[name].readOnly === true,
  );
  if (readOnly.length === 0) return node;
  const kept = Object.fromEntries(Object.entries(properties).filter(([name]) => !readOnly.includes(name)));
  const out: JsonObject = { ...node, properties: kept };
  if (Array.isArray(node.required)) out.required = node.required.filter((name) => !readOnly.includes(name as string));
  return out;
}

/** Prism's finding for a required body not sent. */
export function missingBody(): Diagnostic {
  return { code: 'required', message: 'Body parameter is required', severity: ERROR };
}
