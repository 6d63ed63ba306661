// A mutualTLS requirement is met: over plain HTTP the mock cannot see a client certificate, and never
// refuses what no request can show. The other schemes of a requirement are still checked, and a 401's
// WWW-Authenticate names only schemes the operation takes.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

const OK = `responses: { '200': { description: ok, content: { application/json: { schema: { type: string } } } } }`;

const CONTRACT = `openapi: 3.1.0
info: { title: mutual TLS, version: '1' }
paths:
  /only:
    get: { operationId: onlyTls, security: [{ Tls: [] }], ${OK} }
  /either:
    get: { operationId: eitherTls, security: [{ Bearer: [] }, { Tls: [] }], ${OK} }
  /both:
    get: { operationId: bothTls, security: [{ Tls: [], Key: [] }], ${OK} }
  /key:
    get: { operationId: keyOnly, security: [{ Key: [] }], ${OK} }
  /open:
    get: { operationId: openOrBearer, security: [{ Bearer: [] }, {}], ${OK} }
components:
  securitySchemes:
    Tls: { type: mutualTLS }
    Key: { type: apiKey, in: header, name: X-Api-Key }
    Bearer: { type: http, scheme: bearer }
`;

const mockOf = async () => newMock({ contract: await inlineContract(CONTRACT) });

describe('mutualTLS security', () => {
  test.each([
    ['a requirement made only of mutualTLS', '/only'],
    ['a mutualTLS requirement beside a bearer one (either will do)', '/either'],
  ])('%s is met by a request with no credentials', async (_name, path) => {
    const mock = await mockOf();
    await request(mock.app).get(path).expect(200);
  });

  test('mutualTLS together with an API key still needs the key, and the 401 does not ask for mutualTLS', async () => {
    const mock = await mockOf();
    const res = await request(mock.app).get('/both').expect(401);
    expect(res.body.detail).toContain('Key (header X-Api-Key: <any value>)');
    expect(res.body.detail).not.toContain('mutualTLS');
    await request(mock.app).get('/both').set('X-Api-Key', 'k').expect(200);
  });

  test.each(['/both', '/key'])('a 401 for a missing API key (%s) names no scheme in WWW-Authenticate', async (path) => {
    const mock = await mockOf();
    const res = await request(mock.app).get(path).expect(401);
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  test('a 401 where anonymous calls are allowed too names the bearer scheme alone, not "None"', async () => {
    const mock = await mockOf();
    const res = await request(mock.app).get('/open').set('Authorization', 'Token t').expect(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });
});
