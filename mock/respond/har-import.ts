// A HAR file (a browser's network panel, or GET /__mock/calls.har) as overrides: each recorded answer of an
// operation is given again, in the order recorded, to the request it answered. Every override is checked
// against the contract as any other, so a recording that breaks the contract is refused entry by entry.
import type { Served } from '../plan/serve.js';
import { isMatch, matchRoute } from '../plan/match-route.js';
import type { Override, OverrideSpec } from './overrides.js';

/** How recorded answers are given again. */
export type HarReplay =
  /** Each entry answers once, in the order recorded (a list before and after a create, say). */
  | 'sequence'
  /** The last answer recorded for each request answers every time, until reset. */
  | 'last';

/** An entry made into an override, or why it was not. */
export type HarEntryOutcome =
  { entry: number; request: string; spec: OverrideSpec } | { entry: number; request: string; reasons: string[] };

/** The entries of a HAR the mock will not replay, at most this many listed. */
export const LISTED_REFUSALS = 100;

/**
 * Reads a HAR 1.2 document into override specs, entry by entry: the request's URL routed to its operation
 * (path parameters and query become the override's `match`), the response's status and JSON body its
 * answer, a dropped call (`_fault: "drop"`, as the mock exports it) a dropped connection. Entries of no
 * operation (a page's assets), without an answer, or with a body other than JSON are refused, with why.
 * @returns the outcomes in the order their overrides are to be set, or what is wrong with the document
 * @example readHar(JSON.parse(text), context.served, 'sequence')
 */
export function readHar(har: unknown, served: Served, replay: HarReplay): HarEntryOutcome[] | string {
  const entries = (har as { log?: { entries?: unknown } })?.log?.entries;
  if (!Array.isArray(entries)) return 'a HAR is a JSON object { log: { entries: [...] } } (HAR 1.2)';
  const outcomes = entries.map((entry, index) => readEntry(entry, index, served, replay));
  if (replay === 'sequence') return outcomes;
  // The last answer of each request wins: earlier ones are dropped, not refused.
  const last = new Map<string, HarEntryOutcome>();
  const refused: HarEntryOutcome[] = [];
  for (const outcome of outcomes) {
    if ('spec' in outcome) {
      const key = JSON.stringify([outcome.spec.operationId, outcome.spec.match]);
      last.delete(key);
      last.set(key, outcome);
    } else refused.push(outcome);
  }
  // A query matches partially, so a request recorded without one would also answer `?cursor=…`: the more
  // query names an override names, the earlier it is tried (the first override that matches answers).
  const specific = (outcome: HarEntryOutcome) =>
    'spec' in outcome ? Object.keys(outcome.spec.match?.query ?? {}).length : 0;
  const kept = [...last.values()].sort((a, b) => specific(b) - specific(a) || a.entry - b.entry);
  return [...kept, ...refused.sort((a, b) => a.entry - b.entry)];
}

function readEntry(entry: unknown, index: number, served: Served, replay: HarReplay): HarEntryOutcome {
  const { request, response } = (entry ?? {}) as {
    request?: { method?: unknown; url?: unknown };
    response?: { status?: unknown; content?: { text?: unknown; mimeType?: unknown; encoding?: unknown } };
    _fault?: unknown;
  };
  const method = typeof request?.method === 'string' ? request.method.toUpperCase() : undefined;
  const url = typeof request?.url === 'string' && URL.canParse(request.url) ? new URL(request.url) : undefined;
  const shown = `${method ?? '?'} ${url ? `${url.pathname}${url.search}` : String(request?.url ?? '?')}`;
  const refuse = (...reasons: string[]) => ({ entry: index, request: shown, reasons });
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
  const text = typeof content.text === 'string' ? content.text : '';
  if (text === '') return { entry: index, request: shown, spec: { ...spec, status } };
  const type = typeof content.mimeType === 'string' ? content.mimeType : '';
  if (!/[/+]json\b/i.test(type)) return refuse(`its body is ${type || 'of no type'}: only JSON bodies are replayed`);
  try {
    const decoded = content.encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
    return { entry: index, request: shown, spec: { ...spec, status, body: JSON.parse(decoded) as unknown } };
  } catch {
    return refuse('its body is not JSON, though its type says so');
  }
}

/** What an import did: the overrides now in force, and the entries refused with why (the first 100). */
export interface HarImport {
  entries: number;
  overrides: Override[];
  refused: { entry: number; request: string; reasons: string[] }[];
  /** How many entries were refused, listed or not. */
  refusedCount: number;
}

/**
 * Sets an override for each entry read, in order, through `override` (which checks it against the contract
 * and the session's limits); an override refused there is a refused entry.
 * @example applyHar(readHar(har, served, 'sequence'), (spec) => controls.override(session, spec))
 */
export function applyHar(
  outcomes: HarEntryOutcome[],
  override: (spec: OverrideSpec) => { ok: true; override: Override } | { ok: false; errors: string[] },
): HarImport {
  const result: HarImport = { entries: outcomes.length, overrides: [], refused: [], refusedCount: 0 };
  const refuse = (entry: number, request: string, reasons: string[]) => {
    result.refusedCount++;
    if (result.refused.length < LISTED_REFUSALS) result.refused.push({ entry, request, reasons });
  };
  for (const outcome of outcomes) {
    if (!('spec' in outcome)) {
      refuse(outcome.entry, outcome.request, outcome.reasons);
      continue;
    }
    const set = override(outcome.spec);
    if (set.ok) result.overrides.push(set.override);
    else refuse(outcome.entry, outcome.request, set.errors);
  }
  return result;
}
