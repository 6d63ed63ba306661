import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ContractError, DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';

async function file(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'contract-'));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('loadContract', () => {
  test('reads the seven operations of the default contract', async () => {
    const contract = await loadContract(DEFAULT_CONTRACT);
    expect(contract.title).toBe('Membership Passes and Credentials API');
    expect(contract.operations.map((o) => `${o.id} ${o.method.toUpperCase()} ${o.path}`)).toEqual([
      'listPasses GET /members/{member_id}/passes',
      'createPass POST /members/{member_id}/passes',
      'getPass GET /members/{member_id}/passes/{pass_id}',
      'deletePass DELETE /members/{member_id}/passes/{pass_id}',
      'listCredentials GET /members/{member_id}/credentials',
      'createCredential POST /members/{member_id}/credentials',
      'deleteCredential DELETE /members/{member_id}/credentials/{credential_id}',
    ]);
  });

  test('reads the file anew on every load, so an edited contract is served as it is now', async () => {
    const contract = (title: string) =>
      `openapi: 3.0.3\ninfo: {title: ${title}, version: "1"}\npaths:\n` +
      '  /things:\n    get:\n      responses:\n        "200": {description: ok}\n';
    const path = await file('edited.yaml', contract('Before'));
    expect((await loadContract(path)).title).toBe('Before');
    await writeFile(path, contract('After'));
    expect((await loadContract(path)).title).toBe('After');
  });

  test('names an operation without operationId by method and path', async () => {
    const path = await file(
      'x.yaml',
      'openapi: 3.0.3\ninfo: {title: X, version: "1"}\npaths:\n' +
        '  /things:\n    get:\n      responses:\n        "200": {description: ok}\n',
    );
    expect((await loadContract(path)).operations[0]!.id).toBe('GET /things');
  });

  test.each([
    ['a missing file', null, /no such file/],
    ['broken YAML', 'openapi: [3.0', /not valid YAML or JSON/],
    ['a document that is not OpenAPI', 'hello: world\n', /no "openapi" version field/],
    ['a list at the top', '- 1\n- 2\n', /expected an object at the top/],
    ['a Postman collection v1 (a "requests" list)', '{"name": "C", "requests": []}', /nor a Postman collection/],
    ['YAML that contains itself through an alias', 'openapi: 3.0.3\nx-loop: &loop [*loop]\n', /contains itself/],
    // Versions it does not read: each was served as an API of no operations.
    [
      'OpenAPI "2.0"',
      'openapi: "2.0"\npaths: {}\n',
      /is "openapi": "2\.0", a version .* Swagger 2\.0 document says "swagger": "2\.0"/,
    ],
    [
      'OpenAPI 4',
      'openapi: 4.0.0\ninfo: {title: t, version: "1"}\npaths: {}\n',
      /"openapi": "4\.0\.0", a version the mock does not read: it reads OpenAPI 3\.x/,
    ],
    [
      'Swagger 1.2 by its "swagger" field',
      'swagger: "1.2"\napis: []\n',
      /"swagger": "1\.2", a version .* Convert it to OpenAPI 3 first/,
    ],
    [
      'Swagger 1.2 by its "swaggerVersion"',
      'swaggerVersion: "1.2"\napis: []\n',
      /is Swagger "1\.2", a version .*api-spec-converter/,
    ],
    ['a version written as a number', 'openapi: 3.0\npaths: {}\n', /"openapi": 3, a number .* openapi: "3\.0\.3"/],
    ['a Swagger version written as a number', 'swagger: 2.0\npaths: {}\n', /"swagger": 2, a number .* swagger: "2\.0"/],
  ])('refuses %s with a ContractError that says why', async (_name, text, message) => {
    const path = text === null ? join(tmpdir(), 'does-not-exist.yaml') : await file('c.yaml', text);
    const error = await loadContract(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toMatch(message);
  });

  test('loads a contract with only webhooks: it serves no operation, as Prism', async () => {
    const path = await file(
      'hooks.yaml',
      'openapi: 3.1.0\ninfo: {title: Hooks, version: "1"}\nwebhooks:\n' +
        '  newPet:\n    post:\n      responses:\n        "200": {description: ok}\n',
    );
    const contract = await loadContract(path);
    expect(contract).toMatchObject({ title: 'Hooks', operations: [] });
  });

  test('reads a JSON contract', async () => {
    const path = await file(
      'x.json',
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Json', version: '2' },
        paths: { '/a': { get: { operationId: 'getA', responses: { '200': { description: 'ok' } } } } },
      }),
    );
    expect(await loadContract(path)).toMatchObject({ title: 'Json', version: '2', operations: [{ id: 'getA' }] });
  });
});

describe('loadContract with a Postman collection', () => {
  const COLLECTION = {
    info: { name: 'Pet shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: [
      {
        name: 'Pets',
        item: [
          {
            id: 'list-pets',
            name: 'List pets',
            request: { method: 'GET', url: { raw: '{{baseUrl}}/pets', host: ['{{baseUrl}}'], path: ['pets'] } },
            response: [],
          },
          {
            name: 'Get a pet',
            request: {
              method: 'GET',
              url: { raw: '{{baseUrl}}/pets/:id', host: ['{{baseUrl}}'], path: ['pets', ':id'] },
            },
            response: [],
          },
        ],
      },
    ],
  };

  test("reads a collection's requests (in folders too) as operations, titled by info.name", async () => {
    const contract = await loadContract(await file('pets.postman_collection.json', JSON.stringify(COLLECTION)));
    expect(contract.title).toBe('Pet shop');
    expect(contract.operations.map((o) => `${o.method} ${o.path}`)).toEqual(['get /pets', 'get /pets/{id}']);
  });

  test('names a request by its id, or by method and path when it has none, the same on every load', async () => {
    const path = await file('pets.postman_collection.json', JSON.stringify(COLLECTION));
    const ids = async () => (await loadContract(path)).operations.map((o) => o.id);
    expect(await ids()).toEqual(['list-pets', 'GET /pets/{id}']);
    expect(await ids()).toEqual(await ids());
  });
});
