import { describe, expect, test } from 'vitest';
import { toProblem, type HttpError } from '../../mock/http/to-problem.js';

const error = (fields: Partial<HttpError>, message = 'boom'): HttpError => Object.assign(new Error(message), fields);

/** The status, title, detail and violations of the problem an error becomes (limit 1024 bytes). */
const refusal = (fields: Partial<HttpError>, message?: string) => {
  const [problem, violations] = toProblem(error(fields, message), '/members/m1/passes', 1024);
  expect(problem.instance).toBe('/members/m1/passes');
  return { status: problem.status, type: problem.type.split('/').pop(), detail: problem.detail, violations };
};

describe('toProblem', () => {
  test.each([
    [{ type: 'entity.parse.failed' }, 400, 'malformed-json', 'The body is not valid JSON: boom.', 'body'],
    [{ type: 'encoding.invalid' }, 400, 'invalid-request', 'The body is not valid UTF-8.', 'body'],
    [
      { type: 'entity.too.large', length: 2048 },
      413,
      'payload-too-large',
      'The body has 2048 bytes; the limit is 1024 bytes.',
      'body',
    ],
    [
      { type: 'entity.too.large' },
      413,
      'payload-too-large',
      'The body has more than the limit of bytes; the limit is 1024 bytes.',
      'body',
    ],
    [
      { type: 'charset.unsupported', charset: 'latin1' },
      415,
      'unsupported-media-type',
      'The body\'s charset "latin1" is not supported; send UTF-8 JSON without compression.',
      'header',
    ],
    [
      { type: 'encoding.unsupported', encoding: 'br' },
      415,
      'unsupported-media-type',
      'The body\'s encoding "br" is not supported; send UTF-8 JSON without compression.',
      'header',
    ],
    [{ type: 'request.aborted' }, 400, 'invalid-request', 'The body ended before its announced length.', 'body'],
    [{ type: 'request.size.invalid' }, 400, 'invalid-request', 'The body ended before its announced length.', 'body'],
    [{ status: 400 }, 400, 'invalid-request', 'The body could not be read: boom.', 'body'],
    [{ status: 499 }, 400, 'invalid-request', 'The body could not be read: boom.', 'body'],
  ])('a body error %j is the client’s: %i %s', (fields, status, type, detail, location) => {
    const pointer = location === 'header' ? '/content-type' : '';
    expect(refusal(fields)).toEqual({ status, type, detail, violations: [{ location, pointer, message: detail }] });
  });

  test('a limit of one byte is "1 byte"', () => {
    const [problem] = toProblem(error({ type: 'entity.too.large', length: 2 }), '/members/m1/passes', 1);
    expect(problem.detail).toBe('The body has 2 bytes; the limit is 1 byte.');
  });

  test.each([{}, { status: 399 }, { status: 500 }, { type: 'unknown' }])(
    'any other error %j is the mock’s own: a 500 that keeps its message out of the answer',
    (fields) => {
      const { status, type, detail, violations } = refusal(fields, 'secret internals');
      expect({ status, type, violations }).toEqual({ status: 500, type: 'internal', violations: [] });
      expect(detail).toBe('The mock failed to answer this request; the server log has the details.');
    },
  );
});
