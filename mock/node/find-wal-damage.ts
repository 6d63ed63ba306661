// Reads a state file's write-ahead log as SQLite recovers it, to tell damage from a write a kill cut short.
// SQLite replays the log's frames up to the first one whose checksum or salt fails, and drops the rest without a
// word: bytes changed in the middle of the log would silently take back every change committed after them.
import { closeSync, openSync, readSync } from 'node:fs';
import { counted } from '../lib/counted.js';

/** The first bytes of a log's header: checksums in little-endian words, or (…683) in big-endian ones. */
const MAGIC = 0x377f0682;
const HEADER = 32;
const FRAME_HEADER = 24;

/**
 * Why the write-ahead log of the SQLite database `file` (`FILE-wal`) is damaged, or `undefined` when it is whole
 * or missing. It is damaged when a frame (or its header) fails its check while a later frame that checks (its
 * salts those of the log, its checksum following the frame before it) ends a committed transaction: SQLite would
 * drop that transaction, and every one after the break. A kill (kill -9) only ever cuts the log short: its last
 * frame torn, or frames of a transaction that never committed left behind a later commit. Neither is damage.
 * @example
 * findWalDamage('demo/state.db');
 * // 'its write-ahead log demo/state.db-wal breaks at frame 52 of 130, before 25 commits'
 */
export function findWalDamage(file: string): string | undefined {
  const wal = `${file}-wal`;
  let fd: number;
  try {
    fd = openSync(wal, 'r');
  } catch {
    return undefined;
  }
  try {
    const header = Buffer.alloc(HEADER);
    if (readSync(fd, header, 0, HEADER, 0) < HEADER) return undefined;
    const pageSize = pageSizeOf(file) ?? header.readUInt32BE(8);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
    const bigEndian = header.readUInt32BE(0) === (MAGIC | 1);
    const salts = header.readBigUInt64BE(16);
    const whole =
      (header.readUInt32BE(0) | 1) === (MAGIC | 1) &&
      header.readUInt32BE(4) === 3007000 &&
      sameSum(checksum(header, 0, 24, [0, 0], bigEndian), header, 24);

    // Frame by frame: the first that fails is the break (or the header is); commits that check after it are lost.
    let breakAt: number | undefined = whole ? undefined : 0;
    let commitsAfter = 0;
    let frames = 0;
    let previous = header.subarray(24, 32);
    const frame = Buffer.alloc(FRAME_HEADER + pageSize);
    for (let at = HEADER; readSync(fd, frame, 0, frame.length, at) === frame.length; at += frame.length) {
      frames++;
      const start: [number, number] = [previous.readUInt32BE(0), previous.readUInt32BE(4)];
      const sum = checksum(frame, FRAME_HEADER, frame.length, checksum(frame, 0, 8, start, bigEndian), bigEndian);
      const checks = frame.readUInt32BE(0) !== 0 && frame.readBigUInt64BE(8) === salts && sameSum(sum, frame, 16);
      if (breakAt === undefined && !checks) breakAt = frames;
      else if (breakAt !== undefined && checks && frame.readUInt32BE(4) !== 0) commitsAfter++;
      previous = Buffer.from(frame.subarray(16, 24));
    }
    if (breakAt === undefined || commitsAfter === 0) return undefined;
    const where = breakAt === 0 ? 'its header' : `frame ${breakAt} of ${frames}`;
    return `its write-ahead log ${wal} breaks at ${where}, before ${counted(commitsAfter, 'commit')}`;
  } finally {
    closeSync(fd);
  }
}

/** SQLite's checksum of `data[from, to)` as 32-bit words, going on from `[s0, s1]`. */
function checksum(data: Buffer, from: number, to: number, [s0, s1]: [number, number], bigEndian: boolean) {
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  for (let i = from; i < to; i += 8) {
    s0 = (s0 + view.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1] as [number, number];
}

/** Whether the checksum is the one stored (two big-endian words) at `at`. */
function sameSum([s0, s1]: [number, number], data: Buffer, at: number): boolean {
  return data.readUInt32BE(at) === s0 && data.readUInt32BE(at + 4) === s1;
}

/** The page size the database's header gives (1 stands for 65536), or `undefined` when it cannot be read. */
function pageSizeOf(file: string): number | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      const bytes = Buffer.alloc(2);
      if (readSync(fd, bytes, 0, 2, 16) < 2) return undefined;
      const size = bytes.readUInt16BE(0);
      return size === 1 ? 65536 : size;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
