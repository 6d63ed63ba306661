// A HAR file (a browser's network panel, or GET /__mock/calls.har) as overrides: each recorded answer of an
// operation is given again, in the order recorded, to the request it answered. Every override is checked
// against the contract as any other, so a recording that breaks the contract is refused entry by entry.
import type { Served } from '../plan/serve.js';
import { isMatch, matchRoute } from '../plan/match-route.js';
import type { Override, OverrideSpec } from './overrides.js';
import { fromBase64, utf8Text } from '../lib/bytes.js';
import { CHECKED_BYTES } from './proxy-rules.js';

/** How recorded answers are given again. */
export type HarReplay =
  /** Each entry answers once, in the order recorded (a list before and after a create, say). */
  | 'sequence'
  /** The last answer recorded for each request answers every time, until reset. */
  | 'last';

/** The entries of a HAR the mock will not replay, at most this many listed. */
export const LISTED_REFUSALS = 100;

/** The most entries a HAR may have: past it, the whole document is refused and nothing is set. */
export const MAX_HAR_ENTRIES = 10_000;
/**
 * The largest HAR `POST /__mock/har` reads, in bytes: a browser's HAR holds the page's own files too, so room for
 * a long session's worth. A recording (`--record`) stops growing at it, so the mock takes every one it writes.
 */
export const MAX_HAR_BYTES = 32 * 1024 * 1024;
/** Why a HAR past {@link MAX_HAR_ENTRIES} is refused (413), whoever counts its entries. */
export const TOO_MANY_HAR_ENTRIES = `the HAR has more than ${MAX_HAR_ENTRIES} entries; at most ${MAX_HAR_ENTRIES} are read (export fewer, or split it)`;

/** What an import did: the overrides now in force, and the entries refused with why (the first 100). */
export interface HarImport {
  entries: number;
  overrides: Override[];
  refused: { entry: number; request: string; reasons: string[] }[];
  /** How many entries were refused, listed or not. */
  refusedCount: number;
}

/** Sets an override, or says why not (`full`: the session holds as many as it may, so no later one fits). */
export type SetOverride = (
  spec: OverrideSpec,
) => { ok: true; override: Override } | { ok: false; errors: string[]; full?: boolean };

/**
 * Replays a HAR 1.2 document's answers as overrides, entry by entry, through `override` (which checks each
 * against the contract and the session's limits): the request's URL routed to its operation (path parameters
 * and query become the override's `match`), the response's status and JSON body its answer, a dropped call
 * (`_fault: "drop"`, as the mock exports it) a dropped connection. Entries of no operation (a page's assets),
 * without an answer, or with a body other than JSON are refused, with why. A body is parsed only when its
 * override may be set: once the session is full, the rest are refused unread. At most {@link LISTED_REFUSALS}
 * refusals are listed (all are counted).
 * @returns what was set and refused, or what is wrong with the document (nothing was set then)
 * @example importHar(JSON.parse(text), context.served, 'sequence', (spec) => control.override('', spec))
 */
export function importHar(
  har: unknown,
  served: Served,
  replay: HarReplay,
  override: SetOverride,
  /** Why no more overrides fit in the session (it is full), or nothing while they do. */
  noRoom: () => string[] | undefined = () => undefined,
): HarImport | string {
  const entries = (har as { log?: { entries?: unknown } })?.log?.entries;
  if (!Array.isArray(entries)) return 'a HAR is a JSON object { log: { entries: [...] } } (HAR 1.2)';
  if (entries.length > MAX_HAR_ENTRIES) return TOO_MANY_HAR_ENTRIES;
  const result: HarImport = { entries: entries.length, overrides: [], refused: [], refusedCount: 0 };
  const refuse = (entry: number, request: string, reasons: string[]) => {
    result.refusedCount++;
    if (result.refused.length < LISTED_REFUSALS) result.refused.push({ entry, request, reasons });
  };
  let full: string[] | undefined;
  const set = (routed: RoutedEntry) => {
    full ??= noRoom();
    if (full) return refuse(routed.entry, routed.request, full);
    const spec = specOf(routed);
    if ('reasons' in spec) return refuse(routed.entry, routed.request, spec.reasons);
    const done = override(spec);
    if (done.ok) return void result.overrides.push(done.override);
    if (done.full) full = done.errors;
    refuse(routed.entry, routed.request, done.errors);
  };
  const routed = entries.map((entry, index) => routeEntry(entry, index, served, replay));
  if (replay === 'sequence') {
    for (const entry of routed)
      if ('reasons' in entry) refuse(entry.entry, entry.request, entry.reasons);
      else set(entry);
    return result;
  }
  // The last answer of each request wins: earlier ones are dropped, not refused.
  const last = new Map<string, RoutedEntry>();
  const unrouted: Refused[] = [];
  for (const entry of routed) {
    if ('reasons' in entry) {
      unrouted.push(entry);
      continue;
    }
    const key = JSON.stringify([entry.spec.operationId, entry.spec.match]);
    last.delete(key);
    last.set(key, entry);
  }
  // A query matches partially, so a request recorded without one would also answer `?cursor=…`: the more
  // query names an override names, the earlier it is tried (the first override that matches answers).
  const specific = (entry: RoutedEntry) => Object.keys(entry.spec.match?.query ?? {}).length;
  for (const entry of [...last.values()].sort((a, b) => specific(b) - specific(a) || a.entry - b.entry)) set(entry);
  for (const entry of unrouted) refuse(entry.entry, entry.request, entry.reasons);
  return result;
}

/** An entry refused before its body is looked at. */
interface Refused {
  entry: number;
  request: string;
  reasons: string[];
}

/** An entry routed to its operation: the override it makes but for its body, which is read last. */
interface RoutedEntry {
  entry: number;
  request: string;
  spec: OverrideSpec;
  content?: { text: string; encoding: unknown };
}

function routeEntry(entry: unknown, index: number, served: Served, replay: HarReplay): RoutedEntry | Refused {
  const { request, response } = (entry ?? {}) as {
    request?: { method?: unknown; url?: unknown };
    response?: { status?: unknown; content?: { text?: unknown; mimeType?: unknown; encoding?: unknown } };
    _fault?: unknown;
  };
  const method = typeof request?.method === 'string' ? request.method.toUpperCase() : undefined;
  const url = typeof request?.url === 'string' && URL.canParse(request.url) ? new URL(request.url) : undefined;
  const shown = `${method ?? '?'} ${url ? `${url.pathname}${url.search}` : String(request?.url ?? '?').slice(0, 200)}`;
  const refuse = (...reasons: string[]): Refused => ({ entry: index, request: shown, reasons });
  if (!method || !url) return refuse('the entry needs request.method and an absolute request.url');
  const routed = matchRoute(served, method, url.pathname, false);
  if (!isMatch(routed)) return refuse('no operation of the contract has this method and path');
  const match: NonNullable<OverrideSpec['match']> = { pathParams: { ...routed.pathParams } };
  if (url.searchParams.size) {
    // A name sent more than once is an array, as the journal keeps it (and as a match compares it).
    const query: Record<string, string | string[]> = {};
    for (const name of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(name);
      query[name] = values.length > 1 ? values : values[0]!;
    }
    match.query = query;
  }
  const spec: OverrideSpec = {
    operationId: routed.plan.operation.id,
    match,
    ...(replay === 'sequence' ? { times: 1 } : {}),
  };
  if ((entry as { _fault?: unknown })._fault === 'drop')
    return { entry: index, request: shown, spec: { ...spec, fault: 'drop' } };
  const status = response?.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
    return refuse('no answer was recorded (response.status is not 200-599)');
  const content = response?.content ?? {};
  // The mock's own export holds only the start of a body longer than its journal keeps; --record, of one
  // longer than the proxy holds.
  const cut = (content as { _truncated?: { bytes?: unknown } })._truncated?.bytes;
  if (typeof cut === 'number') return refuse(cutWhenRecorded(cut));
  const text = typeof content.text === 'string' ? content.text : '';
  if (text === '') return { entry: index, request: shown, spec: { ...spec, status } };
  const type = typeof content.mimeType === 'string' ? content.mimeType : '';
  if (!/[/+]json\b/i.test(type)) return refuse(`its body is ${type || 'of no type'}: only JSON bodies are replayed`);
  return { entry: index, request: shown, spec: { ...spec, status }, content: { text, encoding: content.encoding } };
}

/** Why an entry whose body was cut (`_truncated: { bytes }`) is not replayed, and where a whole one comes from. */
function cutWhenRecorded(bytes: number): string {
  return (
    `its body was cut when it was recorded (${bytes} bytes): --record keeps an answer whole up to ` +
    `${CHECKED_BYTES / 1024 / 1024} MiB, GET /__mock/calls.har up to --journal-body-limit`
  );
}

/** The entry's override with its body, or why its body cannot be one. */
function specOf({ spec, content }: RoutedEntry): OverrideSpec | { reasons: string[] } {
  if (!content) return spec;
  let decoded = content.text;
  if (content.encoding === 'base64') {
    try {
      decoded = utf8Text(fromBase64(content.text));
    } catch {
      return { reasons: ['its body is not base64, though its encoding says so'] };
    }
  }
  try {
    return { ...spec, body: JSON.parse(decoded) as unknown };
  } catch {
    return { reasons: ['its body is not JSON, though its type says so'] };
  }
}
