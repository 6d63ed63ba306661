// The recording of --record: a whole HAR after every entry, within what POST /__mock/har takes.
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CallRecord } from '../../mock/journal/journal.js';
import { openHarRecorder, RECORD_BYTES, RECORD_ENTRIES } from '../../mock/node/record-har.js';
import { MAX_HAR_BYTES, MAX_HAR_ENTRIES } from '../../mock/respond/har-import.js';

const creator = { name: 'membership-mock', version: '0.0.0' };

function call(n: number, body: unknown = { data: [], next_cursor: null }): CallRecord {
  return {
    id: `call-${n}`,
    time: '2026-01-05T09:30:00.000Z',
    operationId: 'listPasses',
    method: 'GET',
    path: '/members/m1/passes',
    pathParams: { memberId: 'm1' },
    query: {},
    headers: {},
    response: { status: 200, headers: { 'content-type': 'application/json' }, body },
    violations: [],
    answeredBy: 'proxy',
  };
}

async function recordingFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'record-har-')), 'staging.har');
}

async function entriesIn(file: string): Promise<{ _id: string }[]> {
  return (JSON.parse(await readFile(file, 'utf8')) as { log: { entries: { _id: string }[] } }).log.entries;
}

describe('openHarRecorder', () => {
  test('by default a recording stops where POST /__mock/har stops reading: 32 MiB and 10,000 entries', () => {
    expect([RECORD_BYTES, RECORD_ENTRIES]).toEqual([MAX_HAR_BYTES, MAX_HAR_ENTRIES]);
    expect(MAX_HAR_BYTES).toBe(32 * 1024 * 1024);
  });

  test('past its entries it writes nothing more, says so once, and the file stays a whole HAR', async () => {
    const file = await recordingFile();
    const full: string[] = [];
    const recorder = openHarRecorder(file, { creator, host: 'localhost', maxEntries: 2, onFull: (b) => full.push(b) });
    for (let n = 1; n <= 4; n++) recorder.add(call(n));
    recorder.close();
    expect(recorder.entries).toBe(2);
    expect(full).toEqual(['2 entries']);
    expect((await entriesIn(file)).map((e) => e._id)).toEqual(['call-1', 'call-2']);
  });

  test('an entry that would take the file past its bytes is not written, and the file is within them', async () => {
    const file = await recordingFile();
    const full: string[] = [];
    const maxBytes = 4096;
    const recorder = openHarRecorder(file, { creator, host: 'localhost', maxBytes, onFull: (b) => full.push(b) });
    recorder.add(call(1));
    recorder.add(call(2, { data: [], next_cursor: 'c'.repeat(4096) }));
    recorder.add(call(3));
    recorder.close();
    expect(full).toEqual(['4096 bytes']);
    expect((await entriesIn(file)).map((e) => e._id)).toEqual(['call-1']);
    expect((await stat(file)).size).toBeLessThanOrEqual(maxBytes);
  });
});
