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
    ['a contract with no operation', 'openapi: 3.0.3\ninfo: {title: X, version: "1"}\npaths: {}\n', /has no operation/],
  ])('refuses %s with a ContractError that says why', async (_name, text, message) => {
    const path = text === null ? join(tmpdir(), 'does-not-exist.yaml') : await file('c.yaml', text);
    const error = await loadContract(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toMatch(message);
  });
});
