// Turns an error thrown while reading or answering a request into the problem that says it.
import { problem, type Problem, type Violation } from './problems.js';
import { counted } from '../lib/counted.js';

/** The fields body-parser puts on its errors (and that any other error may lack). */
export interface HttpError extends Error {
  type?: string;
  status?: number;
  limit?: number;
  length?: number;
  charset?: string;
  encoding?: string;
}

/**
 * The problem for an error of the body parsers (or an unexpected one: 500), with its violations.
 * @example toProblem(Object.assign(new Error('x'), { type: 'entity.too.large' }), '/p', 1024)[0].status // 413
 */
export function toProblem(error: HttpError, instance: string, bodyLimit: number): [Problem, Violation[]] {
  const refuse = (kind: Parameters<typeof problem>[0], at: Violation): [Problem, Violation[]] => [
    problem(kind, at.message, { instance, violations: [at] }),
    [at],
  ];
  switch (error.type) {
    case 'entity.parse.failed':
      return refuse('malformedJson', {
        location: 'body',
        pointer: '',
        message: `The body is not valid JSON: ${error.message}.`,
      });
    case 'entity.too.deep':
      // Read before parsing (see body-depth.ts): such a body is never parsed, copied or recorded.
      return refuse('invalidRequest', { location: 'body', pointer: '', message: error.message });
    case 'encoding.invalid':
      return refuse('invalidRequest', { location: 'body', pointer: '', message: 'The body is not valid UTF-8.' });
    case 'entity.too.large': {
      const size = error.length ?? 'more than the limit of';
      return refuse('payloadTooLarge', {
        location: 'body',
        pointer: '',
        message: `The body has ${size} bytes; the limit is ${counted(bodyLimit, 'byte')}.`,
      });
    }
    case 'entity.too.many':
      // Counted as the body arrived (see stream-json.ts): the rest was never read.
      return refuse('payloadTooLarge', { location: 'body', pointer: '', message: error.message });
    case 'charset.unsupported':
    case 'encoding.unsupported': {
      const what = error.charset ? `charset "${error.charset}"` : `encoding "${error.encoding}"`;
      const message = `The body's ${what} is not supported; send UTF-8 JSON without compression.`;
      return refuse('unsupportedMediaType', { location: 'header', pointer: '/content-type', message });
    }
    case 'state.unsaved':
    case 'state.disk.full': {
      // The state file refused the change (see sqlite-store.ts): nothing was stored, and the client hears it.
      const kind = error.type === 'state.unsaved' ? 'stateNotSaved' : 'storageFull';
      const detail = `${error.message}. Nothing was stored; GET /__mock/health shows the state file's last error.`;
      return [problem(kind, detail, { instance }), []];
    }
    case 'state.file.gone': {
      // The file at the path is not the one the mock writes to (see guard-state-file.ts): nothing is taken.
      const detail =
        `${error.message}. Nothing was stored; GET /__mock/state still answers what the mock holds, ` +
        'to save before the restart and PUT back after it.';
      return [problem('stateFileGone', detail, { instance }), []];
    }
    case 'request.aborted':
    case 'request.size.invalid':
      return refuse('invalidRequest', {
        location: 'body',
        pointer: '',
        message: 'The body ended before its announced length.',
      });
    default:
      // Other body-reading failures (a corrupt compressed body, say) are the client's, as their 4xx status says.
      if (error.status !== undefined && error.status >= 400 && error.status < 500) {
        return refuse('invalidRequest', {
          location: 'body',
          pointer: '',
          message: `The body could not be read: ${error.message}.`,
        });
      }
      return [
        problem('internal', 'The mock failed to answer this request; the server log has the details.', { instance }),
        [],
      ];
  }
}
