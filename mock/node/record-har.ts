// `--record FILE`: the calls the real backend answered, written to a HAR file as they happen. The file is a
// whole HAR after every entry (the closing brackets are written again behind each one), so a mock killed
// mid-run leaves a file any HAR reader, and the mock's own import, takes.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { CallRecord } from '../journal/journal.js';
import { harEntry, type HarCreator } from '../reports/har-export.js';
import { MAX_HAR_BYTES, MAX_HAR_ENTRIES } from '../respond/har-import.js';

/** Writes calls to a HAR file, one entry at a time, within a size and a number of entries. */
export interface HarRecorder {
  /** Adds a call's entry; past the size or the entries, nothing more is written (`onFull` says so once). */
  add(call: CallRecord): void;
  /** How many entries were written. */
  readonly entries: number;
  close(): void;
}

/**
 * The default size of a recording, and its entries: what `POST /__mock/har` reads, so the mock replays every
 * recording it writes. Past either the file stops growing.
 */
export const RECORD_BYTES = MAX_HAR_BYTES;
export const RECORD_ENTRIES = MAX_HAR_ENTRIES;

const FOOTER = '\n]}}\n';

/**
 * Opens (and truncates) `file` for a recording. `host` names the host of calls that sent none; `onFull` hears
 * which bound was reached (`33554432 bytes`, `10000 entries`), once.
 * @example const recorder = openHarRecorder('staging.har', { creator, host: 'localhost:4010' });
 */
export function openHarRecorder(
  file: string,
  {
    creator,
    host,
    maxBytes = RECORD_BYTES,
    maxEntries = RECORD_ENTRIES,
    onFull = () => undefined,
  }: {
    creator: HarCreator;
    host: string;
    maxBytes?: number;
    maxEntries?: number;
    onFull?: (bound: string) => void;
  },
): HarRecorder {
  const fd = openSync(file, 'w');
  const header = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[\n`;
  writeSync(fd, header + FOOTER, 0);
  let position = Buffer.byteLength(header);
  let entries = 0;
  let full = false;
  let closed = false;
  const fill = (bound: string): void => {
    full = true;
    onFull(bound);
  };
  return {
    get entries() {
      return entries;
    },
    add(call) {
      if (closed || full) return;
      if (entries === maxEntries) return fill(`${maxEntries} entries`);
      const text = `${entries === 0 ? '' : ',\n'}${JSON.stringify(harEntry(call, host))}`;
      const bytes = Buffer.byteLength(text);
      if (position + bytes + Buffer.byteLength(FOOTER) > maxBytes) return fill(`${maxBytes} bytes`);
      writeSync(fd, text + FOOTER, position);
      position += bytes;
      entries++;
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}
