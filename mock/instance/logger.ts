// Everything the mock says goes through one logger: the format decides how a line reads, its level where it goes.
import type { FaultKind } from '../respond/faults.js';
import type { AnsweredBy } from '../journal/call-record.js';

/** `pretty` for people, `json` for machines (one object a line), `off`: no request lines (events still in text). */
export type LogFormat = 'pretty' | 'json' | 'off';

/** `info` is news (the banner, a reload, a request), `warn` needs a look, `error` is something that failed. */
export type LogLevel = 'info' | 'warn' | 'error';

/** What an event carries besides its message, for machines: written as fields in `json`, left out in text. */
export type LogFields = Record<string, unknown>;

/** Where a line goes; `level` lets a sink keep warnings and errors apart (stderr) from news (stdout). */
export type LogSink = (line: string, level: LogLevel) => void;

/** A request's line: what the JSON format writes, besides `time` and `level`. */
export interface RequestLine {
  requestId: string;
  method: string;
  path: string;
  operationId: string | null;
  /** With several APIs: the API of the call. */
  contract?: string;
  /** `null` when no answer was sent (a dropped connection). */
  status: number | null;
  ms: number;
  /** Set only when the mock departed from its answer on purpose (see CallRecord.fault). */
  fault?: FaultKind;
  /** Set only when the mock did not answer alone: the upstream, a fallback, the test (see CallRecord.answeredBy). */
  answeredBy?: AnsweredBy;
}

/** The mock's one voice. A sink that throws loses its line, never the process or an answer. */
export interface Logger {
  readonly format: LogFormat;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A request's line; nothing with the `off` format. */
  request(line: RequestLine): void;
}

/**
 * A logger writing in `format` to `sink`.
 * @example createLogger('json', consoleSink).warn('the example "one" breaks its schema', { operationId: 'getPass' })
 * // {"time":"…","level":"warn","msg":"the example \"one\" breaks its schema","operationId":"getPass"}
 */
export function createLogger(format: LogFormat, sink: LogSink = consoleSink): Logger {
  const write = (line: string, level: LogLevel) => {
    try {
      sink(line, level);
    } catch {
      // A closed stream or a throwing sink loses the line, never the process.
    }
  };
  const event =
    (level: LogLevel) =>
    (msg: string, fields: LogFields = {}): void =>
      write(
        format === 'json'
          ? JSON.stringify({ time: new Date().toISOString(), level, msg, ...withoutReserved(fields) })
          : `membership-mock: ${level === 'warn' ? 'warning: ' : ''}${msg}`,
        level,
      );
  return {
    format,
    info: event('info'),
    warn: event('warn'),
    error: event('error'),
    request(line) {
      if (format === 'off') return;
      write(
        format === 'json'
          ? JSON.stringify({ time: new Date().toISOString(), level: 'info', ...line })
          : prettyRequest(line),
        'info',
      );
    },
  };
}

/**
 * `GET /members/m1/passes listPasses 200 2.1ms <id>`, with `[fault: drop]` after a fault and `[proxy]` (or
 * `[fallback]`, `[override]`, `[prefer]`) when the mock did not answer alone; `-` where nothing was.
 */
function prettyRequest({ method, path, operationId, status, ms, requestId, fault, answeredBy }: RequestLine): string {
  const line = `${method} ${path} ${operationId ?? '-'} ${status ?? '-'} ${ms}ms ${requestId}`;
  const by = answeredBy ? ` [${answeredBy}]` : '';
  return fault ? `${line}${by} [fault: ${fault}]` : `${line}${by}`;
}

/** An event's own fields cannot be overwritten by what it carries. */
function withoutReserved(fields: LogFields): LogFields {
  if (!('time' in fields || 'level' in fields || 'msg' in fields)) return fields;
  const { time: _time, level: _level, msg: _msg, ...rest } = fields;
  return rest;
}

/**
 * Lines to the console: news with `console.log`, warnings and errors with `console.error`. Where a process has
 * streams of its own, the Node entry points write there instead (see node/process-sink.ts).
 */
export const consoleSink: LogSink = (line, level) => (level === 'info' ? console.log(line) : console.error(line));
