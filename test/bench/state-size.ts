// Measures the heap one stored record costs when every string is at its contract maximum, beside what the state
// budget charges it: the ratio the stateBytes default is chosen from. Run: node --expose-gc --import tsx
// test/bench/state-size.ts
import { createBodyGenerator } from '../../mock/generate/generate-body.js';
import { DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';
import { BoundedTrieMemo } from '../../mock/lib/bounded-memo.js';
import { serve } from '../../mock/plan/serve.js';
import type { Reply } from '../../mock/http/reply.js';
import { answerFromState, type StateTools } from '../../mock/state/answer-from-state.js';
import { MemoryStore } from '../../mock/state/store.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const served = serve(await loadContract(DEFAULT_CONTRACT));
const plan = (id: string) => served.plans.find((p) => p.operation.id === id)!.collection!;
const render = (body?: unknown): Reply => ({ status: 200, headers: {}, body });

/** A string of `length` code points, each outside the BMP (two UTF-16 units: the costliest kind), unique by `n`. */
const wide = (length: number, n: number) =>
  String(n)
    .padStart(length, '0')
    .replace(/\d/g, (d) => String.fromCodePoint(0x1f600 + Number(d)));
/** 40 characters, a valid date-time (fractional seconds pad it), unique by `n`. */
const longTime = (n: number) => `2026-01-05T09:30:00.${String(n).padStart(19, '0')}Z`;
/** A member id of 64 characters, unique by `n`. */
const member = (n: number) => `m${String(n).padStart(63, '_')}`;

const BODIES = {
  createPass: (n: number) => ({ name: wide(100, n), valid_from: longTime(n), valid_until: longTime(n + 1) }),
  createCredential: (n: number) => ({ kind: 'mobile', label: wide(100, n) }),
};

function tools(): StateTools {
  return {
    store: new MemoryStore(),
    pages: new BoundedTrieMemo(1),
    generator: createBodyGenerator(1),
    now: () => new Date(),
  };
}

/** Heap bytes and charged bytes per record when `records` records are created, `perCollection` to a member. */
function measure(operationId: keyof typeof BODIES, records: number, perCollection: number): [number, number] {
  const state = tools();
  const resource = operationId === 'createPass' ? 'passes' : 'credentials';
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let n = 0; n < records; n++) {
    // Fresh strings, as a parsed request gives them: nothing is shared between records.
    const member_id = JSON.parse(JSON.stringify(member(Math.floor(n / perCollection)))) as string;
    const body: unknown = JSON.parse(JSON.stringify(BODIES[operationId](n)));
    const path = `/members/${member_id}/${resource}`;
    answerFromState(
      plan(operationId),
      state,
      { operationId, path, pathParams: { member_id }, query: {}, body, key: `${operationId}|${n}` },
      render,
    );
  }
  gc!();
  const bytes = (process.memoryUsage().heapUsed - before) / records;
  const { records: stored, bytes: charged } = state.store.usage();
  if (stored !== records) throw new Error(`stored ${stored} of ${records}`);
  return [Math.round(bytes), Math.round(charged / records)];
}

const RECORDS = 20_000;
for (const operationId of ['createPass', 'createCredential'] as const) {
  for (const perCollection of [1000, 1]) {
    const [heap, charged] = measure(operationId, RECORDS, perCollection);
    console.log(
      `${operationId}: ${heap} bytes of heap a record, charged ${charged} (×${(heap / charged).toFixed(2)}), ` +
        `${perCollection} record(s) a collection`,
    );
  }
}

/** Heap bytes an empty collection costs (one emptied by deletes is still charged its path). */
function measureEmpty(collections: number): number {
  const store = new MemoryStore();
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let n = 0; n < collections; n++) {
    const key = `/members/${JSON.parse(JSON.stringify(member(n))) as string}/passes`;
    store.put(key, 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M', {});
    store.delete(key, 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M');
  }
  gc!();
  const bytes = (process.memoryUsage().heapUsed - before) / collections;
  if (store.usage().records !== 0) throw new Error(`holds ${store.usage().records} records`);
  return Math.round(bytes);
}
console.log(`an emptied collection: ${measureEmpty(RECORDS)} bytes`);

/**
 * Heap bytes of the JSON text the mock keeps beside a frozen body it answered (produce-reply's `texts`): for a
 * pass read by getPass, and for a page of 100 passes. Not charged to the state budget; reported beside it.
 */
function measureTexts(): { record: number; page: number } {
  const state = tools();
  for (let n = 0; n < RECORDS; n++) {
    const member_id = member(0).slice(0, 63) + String(n % 10);
    const body: unknown = JSON.parse(JSON.stringify(BODIES.createPass(n)));
    const path = `/members/${member_id}/passes`;
    answerFromState(
      plan('createPass'),
      state,
      { operationId: 'createPass', path, pathParams: { member_id }, query: {}, body, key: `p|${n}` },
      render,
    );
  }
  const records = Array.from({ length: 10 }, (_, m) =>
    state.store.list(`/members/${member(0).slice(0, 63)}${m}/passes`),
  ).flat();
  const texts = new WeakMap<object, string>();
  gc!();
  let before = process.memoryUsage().heapUsed;
  for (const record of records) texts.set(record, JSON.stringify(record));
  gc!();
  const record = (process.memoryUsage().heapUsed - before) / records.length;
  const pages = Array.from({ length: 100 }, (_, i) => Object.freeze(records.slice(i * 100, i * 100 + 100)));
  const pageTexts = new WeakMap<object, string>();
  gc!();
  before = process.memoryUsage().heapUsed;
  for (const page of pages) pageTexts.set(page, JSON.stringify({ data: page, next_cursor: null }));
  gc!();
  const page = (process.memoryUsage().heapUsed - before) / pages.length;
  if (!texts.has(records[0]!) || !pageTexts.has(pages[0]!)) throw new Error('texts collected');
  return { record: Math.round(record), page: Math.round(page) };
}
const texts = measureTexts();
console.log(`kept JSON text: ${texts.record} bytes a pass read, ${texts.page} bytes a page of 100 passes`);
