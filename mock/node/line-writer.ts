// Writes log lines in batches: one write per turn of the event loop instead of one per request.
import { writeSync } from 'node:fs';

/** A `logTo` for a stream: lines are queued and written together on the next turn, and on exit. */
export function createLineWriter(stream: NodeJS.WritableStream, fd: number): (line: string) => void {
  let queued: string[] = [];
  const flush = () => {
    if (queued.length === 0) return;
    const text = `${queued.join('\n')}\n`;
    queued = [];
    stream.write(text);
  };
  process.once('exit', () => {
    if (queued.length) writeSync(fd, `${queued.join('\n')}\n`);
    queued = [];
  });
  return (line) => {
    if (queued.push(line) === 1) setImmediate(flush);
  };
}
