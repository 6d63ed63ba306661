import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { paths } from '../../contracts/membership.js';
import { checkCoverage, coverageMarkdown, type RunningMock } from '../../mock/index.js';
import { newServer } from '../support/harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let mock: RunningMock;
beforeAll(async () => {
  mock = await newServer({ seed: 12 });
});
afterAll(() => mock.close());

describe('the typed front-end calls recipe (mock/docs/recipes.md): an openapi-fetch client against the mock', () => {
  test('creates, lists and deletes a credential with types generated from the contract', async () => {
    const api = createClient<paths>({ baseUrl: mock.url, headers: { Authorization: 'Bearer dev' } });
    const created = await api.POST('/members/{member_id}/credentials', {
      params: { path: { member_id: 'mbr_1' } },
      body: { kind: 'pin', label: 'Desk' },
    });
    expect(created.response.status).toBe(201);
    const credential = created.data!;
    expect(credential.kind).toBe('pin');

    const list = await api.GET('/members/{member_id}/credentials', {
      params: { path: { member_id: 'mbr_1' }, query: { limit: 10 } },
    });
    expect(list.data!.data.map((c) => c.id)).toContain(credential.id);

    const removed = await api.DELETE('/members/{member_id}/credentials/{credential_id}', {
      params: { path: { member_id: 'mbr_1', credential_id: credential.id } },
    });
    expect(removed.response.status).toBe(204);

    const refused = await api.POST('/members/{member_id}/credentials', {
      params: { path: { member_id: 'mbr_1' } },
      body: { kind: 'retina' as 'pin' },
    });
    expect(refused.response.status).toBe(422);
    expect(refused.error).toMatchObject({ status: 422, violations: [{ location: 'body', pointer: '/kind' }] });

    // What this client's test covered of the contract, kept as a report beside the screenshots.
    const coverage = mock.coverage();
    await mkdir(join(ROOT, 'reports'), { recursive: true });
    await writeFile(join(ROOT, 'reports/front-end-coverage.md'), coverageMarkdown(coverage));
    expect(checkCoverage(coverage, { operations: 1, violations: 0 })).toEqual([
      '3 of 7 (42%) of operations were called, below 100%; never called: listPasses, createPass, getPass, deletePass',
      expect.stringMatching(
        /^1 call broke the contract, more than the 0 allowed: call-\d+ createCredential \(body \/kind/,
      ),
    ]);
    const create = coverage.operations.find((o) => o.operationId === 'createCredential')!;
    expect(create.statuses.seen).toEqual({ '201': 1, '422': 1 });
    expect(create.body).toEqual({ sent: ['kind', 'label'], never: [] });
    expect(coverage.operations.find((o) => o.operationId === 'listCredentials')!.query).toEqual({
      sent: ['limit'],
      never: ['cursor'],
    });
  });

  test('a pass is created from {}, every field optional in the types as in the contract', async () => {
    const api = createClient<paths>({ baseUrl: mock.url, headers: { Authorization: 'Bearer dev' } });
    const params = { path: { member_id: 'mbr_1' } };
    const created = await api.POST('/members/{member_id}/passes', { params, body: {} });
    expect(created.response.status).toBe(201);
    expect(created.data?.name).toBe('Membership pass');
    // @ts-expect-error: a pass's name is a string.
    const refused = await api.POST('/members/{member_id}/passes', { params, body: { name: 7 } });
    expect(refused.response.status).toBe(422);
  });

  test('contracts/membership.d.ts is what npm run types generates from the contract today', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'types-')), 'membership.d.ts');
    // The script's own options (--default-non-nullable=false keeps a create's defaulted fields optional).
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: { types: string } };
    const [, ...args] = manifest.scripts.types.split(' ');
    args[args.indexOf('-o') + 1] = out;
    await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), ...args], {
      cwd: ROOT,
    });
    expect(await readFile(out, 'utf8')).toBe(await readFile(join(ROOT, 'contracts/membership.d.ts'), 'utf8'));
  });
});
