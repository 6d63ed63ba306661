// Log lines to the process's own streams, as the CLI and startMock write them.
import type { LogSink } from '../instance/logger.js';
import { createLineWriter } from './line-writer.js';

let stdoutWriter: ((line: string) => void) | undefined;

/**
 * The process's own streams: `info` to stdout in batches (one write per turn of the event loop, flushed on
 * exit), `warn` and `error` to stderr at once.
 */
export function processSink(): LogSink {
  return (line, level) => {
    if (level === 'info') (stdoutWriter ??= createLineWriter(process.stdout, 1))(line);
    else process.stderr.write(`${line}\n`);
  };
}
