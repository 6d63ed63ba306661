import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { createContractValidator } from '../support/contract-validator.js';
import { AUTH, newMock } from '../support/harness.js';

// Every documented response of every operation, under many seeds, checked with ajv against the contract.
const validator = createContractValidator(DEFAULT_CONTRACT);
const SEEDS = Array.from({ length: 30 }, (_, i) => i + 1);
const OPERATIONS = [
  { id: 'listPasses', method: 'get', path: '/members/mbr_1/passes', codes: [200, 400, 401, 403, 404, 406, 429, 500] },
  {
    id: 'createPass',
    method: 'post',
    path: '/members/mbr_1/passes',
    body: { name: 'Gold' },
    codes: [201, 400, 401, 403, 404, 406, 413, 415, 422, 429, 500],
  },
  {
    id: 'getPass',
    method: 'get',
    path: '/members/mbr_1/passes/pas_1',
    codes: [200, 400, 401, 403, 404, 406, 429, 500],
  },
  {
    id: 'deletePass',
    method: 'delete',
    path: '/members/mbr_1/passes/pas_1',
    codes: [204, 400, 401, 403, 404, 406, 429, 500],
  },
  {
    id: 'listCredentials',
    method: 'get',
    path: '/members/mbr_1/credentials',
    codes: [200, 400, 401, 403, 404, 406, 429, 500],
  },
  {
    id: 'createCredential',
    method: 'post',
    path: '/members/mbr_1/credentials',
    body: { kind: 'mobile' },
    codes: [201, 400, 401, 403, 404, 406, 413, 415, 422, 429, 500],
  },
  {
    id: 'deleteCredential',
    method: 'delete',
    path: '/members/mbr_1/credentials/crd_1',
    codes: [204, 400, 401, 403, 404, 406, 429, 500],
  },
] as const;

describe('every body the mock sends validates against the contract', () => {
  test.each(OPERATIONS)('$id: every documented status under 30 seeds', async (op) => {
    const failures: string[] = [];
    for (const seed of SEEDS) {
      const mock = await newMock({ seed });
      for (const code of op.codes) {
        for (const path of [op.path, `${op.path}?x=${seed}`]) {
          const req = request(mock.app)[op.method](path).set(AUTH).set('Prefer', `code=${code}`);
          const res = await ('body' in op ? req.send(op.body) : req);
          expect(res.status).toBe(code);
          const body = res.status === 204 ? undefined : res.body;
          failures.push(
            ...validator.check(op.id, res.status, res.headers['content-type'], body).map((e) => `seed ${seed}: ${e}`),
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  test('the documented example of every schema validates against its schema', () => {
    for (const name of ['Pass', 'PassCreate', 'Credential', 'CredentialCreate', 'Problem']) {
      expect(
        validator.checkSchema(
          name,
          {
            Pass: PASS_EXAMPLE,
            PassCreate: {},
            Credential: CREDENTIAL_EXAMPLE,
            CredentialCreate: { kind: 'pin' },
            Problem: PROBLEM_EXAMPLE,
          }[name],
        ),
        name,
      ).toEqual([]);
    }
  });
});

const PASS_EXAMPLE = {
  id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M',
  member_id: 'mbr_7f3a2c91',
  name: 'Gold membership',
  status: 'active',
  valid_from: '2026-01-05T09:30:00Z',
  valid_until: null,
  created_at: '2026-01-05T09:30:00Z',
};
const CREDENTIAL_EXAMPLE = {
  id: 'crd_01JD3Z9Z8Y7X6W5V4T3S2R1Q0P',
  member_id: 'mbr_7f3a2c91',
  kind: 'pin',
  label: null,
  created_at: '2026-01-05T09:31:00Z',
  last_used_at: null,
};
const PROBLEM_EXAMPLE = {
  type: 'https://example.com/problems/not-found',
  title: 'Not found',
  status: 404,
  detail: 'No such pass.',
};
