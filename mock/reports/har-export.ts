// GET /__mock/calls.har: the journal's calls as an HTTP Archive (HAR 1.2), to open in a browser's network panel.
// The reason phrases Node's STATUS_CODES has (the same table), without Node: the MSW handlers export HAR too.
import statuses from 'statuses';
import { responseHeader, type CallRecord } from '../journal/journal.js';
import { base64Size, utf8Length } from '../lib/bytes.js';
import { bodyKind, formBodyText } from '../http/body-kind.js';

/** Who made the archive: the `creator` of its log. */
export interface HarCreator {
  name: string;
  version: string;
}

type NameValue = { name: string; value: string };

/**
 * A HAR 1.2 log of calls, one entry each. Bodies are text as they were sent: a JSON body as JSON text (a JSON
 * string with its quotes), a form as the urlencoded text sent with its fields as `params`, as browsers write it;
 * bytes that are no text as base64 (`encoding` of a response's content, `_encoding` of a request's postData); a
 * body the journal cut is its start, with `_truncated: { bytes }` beside it. A dropped call (`fault: "drop"`)
 * has status 0 and `_fault`; `_operationId`, `_violations` and `_answeredBy` (`mock`, `proxy`, `fallback`,
 * `prefer`, `override`) say what the mock made of it (HAR allows fields starting `_`). `time` and
 * `timings.wait` are the call's `ms` (the mock measures no send or receive apart).
 * @example toHar(journal.list(), { name: 'membership-mock', version: '0.1.0' }, 'localhost:4010')
 */
export function toHar(calls: CallRecord[], creator: HarCreator, host: string): object {
  return { log: { version: '1.2', creator, entries: calls.map((call) => entryOf(call, host)) } };
}

/**
 * The same log as {@link toHar}, as text made one entry at a time, for a reader that takes it piece by piece:
 * a whole journal never stands in memory as one string.
 * @example for (const chunk of harText(journal.since(0), creator, host)) res.write(chunk)
 */
export function* harText(calls: Iterable<CallRecord>, creator: HarCreator, host: string): Generator<string> {
  yield `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`;
  let separator = '';
  for (const call of calls) {
    yield `${separator}${JSON.stringify(entryOf(call, host))}`;
    separator = ',';
  }
  yield ']}}';
}

/** One call as a HAR entry (see {@link toHar}); `fallbackHost` names the host of a call that sent none. */
export function harEntry(call: CallRecord, fallbackHost: string): object {
  return entryOf(call, fallbackHost);
}

function entryOf(call: CallRecord, fallbackHost: string): object {
  const ms = call.ms ?? 0;
  const host = first(call.headers.host) ?? fallbackHost;
  const queryString = pairs(call.query);
  const search = new URLSearchParams(queryString.map(({ name, value }): [string, string] => [name, value])).toString();
  const requestType = first(call.headers['content-type']) ?? 'application/octet-stream';
  // A form's fields are listed as params; its text is the one sent, else made again from its fields.
  const form = bodyKind(requestType).kind === 'form' && isFields(call.body) ? call.body : undefined;
  const body = call.bodyText ?? (form ? formBodyText(form) : textOf(call.body, call.bodyJson));
  const { response } = call;
  const answered = textOf(response.body, response.bodyJson);
  const answeredSize =
    response.truncated?.bytes ?? (answered === undefined ? 0 : sizeOf(answered, response.bodyEncoding));
  const responseType = responseHeader(call, 'content-type') ?? '';
  return {
    startedDateTime: call.time,
    time: ms,
    request: {
      method: call.method,
      url: `http://${host}${call.path}${search ? `?${search}` : ''}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(call.headers),
      queryString,
      ...(body === undefined
        ? {}
        : {
            postData: {
              mimeType: requestType,
              text: body,
              ...(form ? { params: pairs(form) } : {}),
              // Bytes that are no text go as base64, said as a response's content says it (HAR has no field here).
              ...(call.bodyEncoding ? { _encoding: call.bodyEncoding } : {}),
              ...(call.truncated ? { _truncated: call.truncated } : {}),
            },
          }),
      headersSize: -1,
      bodySize: call.truncated?.bytes ?? (body === undefined ? 0 : sizeOf(body, call.bodyEncoding)),
    },
    response: {
      status: response.status,
      statusText: response.status === 0 ? '' : (statuses.message[response.status] ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(response.headers),
      content: {
        size: answeredSize,
        mimeType: responseType,
        ...(answered === undefined ? {} : { text: answered }),
        // HAR's own field for a body of bytes that are no text.
        ...(response.bodyEncoding ? { encoding: response.bodyEncoding } : {}),
        ...(response.truncated ? { _truncated: response.truncated } : {}),
      },
      redirectURL: responseHeader(call, 'location') ?? '',
      headersSize: -1,
      bodySize: response.status === 0 ? -1 : answeredSize,
    },
    cache: {},
    timings: { send: 0, wait: ms, receive: 0 },
    _id: call.id,
    _operationId: call.operationId,
    _violations: call.violations,
    ...(call.fault ? { _fault: call.fault } : {}),
    _answeredBy: call.answeredBy,
    ...(call.fallback === undefined ? {} : { _fallback: call.fallback }),
    ...(call.responseViolations ? { _responseViolations: call.responseViolations } : {}),
  };
}

/** A body as HAR's text: a string as it is (unless it was sent as JSON: then quoted), anything else as JSON. */
function textOf(body: unknown, json: boolean | undefined): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' && !json ? body : JSON.stringify(body);
}

/** The bytes a body's text stands for: as many as its UTF-8, or as its base64 spells. */
function sizeOf(text: string, encoding: 'base64' | undefined): number {
  return encoding === 'base64' ? base64Size(text) : utf8Length(text);
}

/** Whether a body is a form's fields as the journal keeps them: names, each with a value or a list of them. */
function isFields(body: unknown): body is Record<string, string | string[]> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** Headers or query parameters as HAR's name-value list; a repeated one gives an entry per value. */
function pairs(record: Record<string, string | string[]>): NameValue[] {
  const out: NameValue[] = [];
  for (const [name, value] of Object.entries(record))
    for (const one of Array.isArray(value) ? value : [value]) out.push({ name, value: String(one) });
  return out;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
