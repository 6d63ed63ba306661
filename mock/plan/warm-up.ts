// Runs, once per process, what every first request runs: Prism's validation (ajv) and body generation
// (json-schema-faker, faker) of a small operation. Cold, their code made the first answer 150 to 350 ms;
// warm, a first request to any operation takes a few tens of ms.
import type { IHttpOperation } from '@stoplight/types';
import { createBodyGenerator } from '../generate/generate-body.js';
import { createRequestValidator } from './request-validator.js';

let warmed = false;

/** A body with the kinds of values generation draws: formats, names, enums, numbers, nested objects, lists. */
const BODY = {
  type: 'object',
  required: ['id', 'email', 'name', 'created_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    email: { type: 'string', format: 'email' },
    name: { type: 'string', minLength: 1, maxLength: 40 },
    created_at: { type: 'string', format: 'date-time' },
    url: { type: 'string', format: 'uri' },
    status: { type: 'string', enum: ['active', 'closed'] },
    count: { type: 'integer', minimum: 0 },
    price: { type: 'number', minimum: 0 },
    active: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } },
    owner: { type: 'object', properties: { login: { type: 'string' }, phone: { type: 'string' } } },
  },
};

/**
 * Warms validation and generation up (about 100 ms, the first time only): called before a mock listens, so
 * that its first answer is as quick as the next ones.
 * @example warmUp(); // then listen
 */
export function warmUp(): void {
  if (warmed) return;
  warmed = true;
  const operation = {
    id: 'warm-up',
    method: 'post',
    path: '/warm/{id}',
    request: {
      path: [{ id: 'p', name: 'id', style: 'simple', required: true, schema: { type: 'string', maxLength: 8 } }],
      query: [{ id: 'q', name: 'limit', style: 'form', schema: { type: 'integer', minimum: 1 } }],
      headers: [{ id: 'h', name: 'x-trace', style: 'simple', schema: { type: 'string' } }],
      body: { id: 'b', required: true, contents: [{ id: 'c', mediaType: 'application/json', schema: BODY }] },
    },
    responses: [{ id: 'r', code: '200', contents: [{ id: 'd', mediaType: 'application/json', schema: BODY }] }],
  } as unknown as IHttpOperation;
  const validate = createRequestValidator(operation);
  const body = createBodyGenerator('warm-up').generate(BODY, 'warm-up');
  const headers = { 'content-type': 'application/json', 'content-length': '2', 'x-trace': 't' };
  validate({ method: 'POST', path: '/warm/a1', query: { limit: '2' }, headers, body }, true);
  validate({ method: 'POST', path: '/warm/too-long-id', query: { limit: 'x' }, headers, body: { id: 1 } }, true);
}
