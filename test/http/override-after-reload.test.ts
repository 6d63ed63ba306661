// An override set before a reload may answer a status the reloaded contract no longer documents: the answer says
// so, naming the override, and the request is not blamed for a Prefer header it never sent.
import request from 'supertest';
import { expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const contract = (statuses: string) => `
openapi: 3.0.3
info: { title: Things, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { type: string } } } } }
        ${statuses}
`;

test('an override whose status the reloaded contract dropped answers 500 naming the override, not the request', async () => {
  const mock = createApp(await loadContract(await inlineContract(contract("'503': { description: down }"))));
  const { id } = mock.override({ operationId: 'listThings', status: 503 });
  await request(mock.app).get('/things').expect(503);
  mock.reload(await loadContract(await inlineContract(contract(''))));
  const res = await request(mock.app).get('/things').expect(500);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body.detail).toBe(
    `The override ${id} answers 503, which listThings does not document (the contract changed since it was set): ` +
      `remove it (DELETE /__mock/overrides/${id}) or reset.`,
  );
  const [, call] = mock.calls();
  expect(call!.violations).toEqual([]);
});
