// `--record FILE`: the calls the real backend answered, written to a HAR file as they happen. The file is a
// whole HAR after every entry (the closing brackets are written again behind each one), so a mock killed
// mid-run leaves a file any HAR reader, and the mock's own import, takes.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { CallRecord } from '../journal/journal.js';
import { harEntry, type HarCreator } from '../reports/har-export.js';

/** Writes calls to a HAR file, one entry at a time, within a size. */
export interface HarRecorder {
  /** Adds a call's entry; past the size, nothing more is written (`onFull` says so once). */
  add(call: CallRecord): void;
  /** How many entries were written. */
  readonly entries: number;
  close(): void;
}

/** The default size of a recording: past it the file stops growing (a long session's traffic, not a disk's). */
export const RECORD_BYTES = 256 * 1024 * 1024;

const FOOTER = '\n]}}\n';

/**
 * Opens (and truncates) `file` for a recording. `host` names the host of calls that sent none.
 * @example const recorder = openHarRecorder('staging.har', { creator, host: 'localhost:4010' });
 */
export function openHarRecorder(
  file: string,
  {
    creator,
    host,
    maxBytes = RECORD_BYTES,
    onFull = () => undefined,
  }: { creator: HarCreator; host: string; maxBytes?: number; onFull?: () => void },
): HarRecorder {
  const fd = openSync(file, 'w');
  const header = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[\n`;
  writeSync(fd, header + FOOTER, 0);
  let position = Buffer.byteLength(header);
  let entries = 0;
  let full = false;
  let closed = false;
  return {
    get entries() {
      return entries;
    },
    add(call) {
      if (closed || full) return;
      const text = `${entries === 0 ? '' : ',\n'}${JSON.stringify(harEntry(call, host))}`;
      const bytes = Buffer.byteLength(text);
      if (position + bytes > maxBytes) {
        full = true;
        return onFull();
      }
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
