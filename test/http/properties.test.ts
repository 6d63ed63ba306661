import fc from 'fast-check';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT, type MockApp } from '../../mock/index.js';
import { createContractValidator } from '../support/contract-validator.js';
import { AUTH, newMock } from '../support/harness.js';

// Replay a failure with the seed and run count printed by fast-check.
const SEED = 20261122;
const RUNS = 150;
const validator = createContractValidator(DEFAULT_CONTRACT);
let mock: MockApp;
beforeAll(async () => {
  mock = await newMock({ seed: 17 });
});

describe(`property tests (fast-check seed ${SEED}, ${RUNS} runs each)`, () => {
  test('any JSON body to createCredential gets a documented answer, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (body) => {
        const res = await request(mock.app)
          .post('/members/m1/credentials')
          .set(AUTH)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
        expect(validator.documents('createCredential', res.status)).toBe(true);
        expect([201, 400, 422]).toContain(res.status);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('any path gets a problem or a documented answer, never a 5xx', async () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9%._~:@!$&'()*+,;=-]{0,12}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { maxLength: 6 }),
        fc.constantFrom('get', 'post', 'delete', 'put', 'patch'),
        async (segments, method) => {
          const res = await request(mock.app)
            [method](`/${segments.join('/')}`)
            .set(AUTH);
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          // An answer for an operation is one the contract documents for it.
          const call = mock.calls().at(-1)!;
          if (call.operationId)
            expect(validator.documents(call.operationId, res.status), `${call.operationId} ${res.status}`).toBe(true);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('every valid create is answered 201 with a body that fits the contract, and reads back the same', async () => {
    const credential = fc.record(
      { kind: fc.constantFrom('pin', 'card', 'mobile'), label: fc.string({ minLength: 1, maxLength: 100 }) },
      { requiredKeys: ['kind'] },
    );
    const member = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
    await fc.assert(
      fc.asyncProperty(member, credential, async (memberId, body) => {
        const res = await request(mock.app).post(`/members/${memberId}/credentials`).set(AUTH).send(body);
        expect(res.status).toBe(201);
        expect(validator.check('createCredential', 201, res.headers['content-type'], res.body)).toEqual([]);
        expect(res.body).toMatchObject({ ...body, member_id: memberId });
        const list = await request(mock.app).get(`/members/${memberId}/credentials?limit=1`).set(AUTH).expect(200);
        expect(list.body.data[0]).toEqual(res.body);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
