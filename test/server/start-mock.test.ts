import { afterEach, describe, expect, test } from 'vitest';
import { copyFile, mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContractError, DEFAULT_CONTRACT, loadContract, startMock, type RunningMock } from '../../mock/index.js';
import { AUTH, newServer } from '../support/harness.js';

const running: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((m) => m.close()));
});

async function start(options = {}): Promise<RunningMock> {
  const mock = await newServer(options);
  running.push(mock);
  return mock;
}

describe('startMock on a real socket', () => {
  test('serves a contract loaded beforehand, without reading its file again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loaded-'));
    const path = join(dir, 'contract.yaml');
    await copyFile(DEFAULT_CONTRACT, path);
    const contract = await loadContract(path);
    // Moved away while the mock starts (and back for the conformance check after the file).
    await rename(path, `${path}.away`);
    const mock = await start({ contract, watch: false }).finally(() => rename(`${path}.away`, path));
    expect(mock.mock.contract).toBe(contract);
    const res = await fetch(`${mock.url}/members/m1/passes`, { headers: AUTH });
    expect(res.status).toBe(200);
  });

  test('listens on 127.0.0.1 and a free port by default', async () => {
    const mock = await start();
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.port).toBeGreaterThan(0);
    const res = await fetch(`${mock.url}/members/m1/passes`, { headers: AUTH });
    expect(res.status).toBe(200);
  });

  test('a call is in the journal as soon as its response has arrived', async () => {
    const mock = await start();
    for (let i = 0; i < 20; i++) {
      await fetch(`${mock.url}/members/m${i}/credentials`, {
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': 'application/json' },
        body: '{"kind":"pin"}',
      });
      expect(mock.calls({ path: `/members/m${i}/credentials` })).toHaveLength(1);
    }
  });

  test('a waiter whose matcher throws does not take the server down', async () => {
    const mock = await start();
    const broken = {
      asymmetricMatch: () => {
        throw new Error('a broken matcher');
      },
    };
    const waiting = mock.waitForCall({ body: broken }, { timeout: 5000 });
    const rejected = expect(waiting).rejects.toThrow('a broken matcher');
    const res = await fetch(`${mock.url}/members/m1/credentials`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: '{"kind":"pin"}',
    });
    expect(res.status).toBe(201);
    expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(200);
    await rejected;
  });

  test('calls() filters and reset() clears', async () => {
    const mock = await start();
    await fetch(`${mock.url}/members/m1/passes`, { headers: AUTH });
    await fetch(`${mock.url}/members/m1/credentials`, { headers: AUTH });
    expect(mock.calls({ operationId: 'listCredentials' })).toHaveLength(1);
    mock.reset();
    expect(mock.calls()).toEqual([]);
  });

  test('two mocks run side by side with their own journals', async () => {
    const [a, b] = await Promise.all([start({ seed: 1 }), start({ seed: 2 })]);
    await fetch(`${a.url}/members/m1/passes`, { headers: AUTH });
    expect(a.calls()).toHaveLength(1);
    expect(b.calls()).toHaveLength(0);
    expect(a.port).not.toBe(b.port);
  });

  test('close() stops listening even with a keep-alive connection open', async () => {
    const mock = await start();
    await fetch(`${mock.url}/__mock/health`);
    await mock.close();
    running.splice(running.indexOf(mock), 1);
    await expect(fetch(`${mock.url}/__mock/health`)).rejects.toThrow();
  });

  test('setState() replaces a session’s state, completing partial records, and the socket serves it', async () => {
    const mock = await start({ seed: 3 });
    const state = mock.setState({ '/members/m1/passes': [{ status: 'suspended' }] }, 's1');
    const [pass] = state.collections['/members/m1/passes']!;
    const headers = { ...AUTH, 'X-Mock-Session': 's1' };
    const res = await fetch(`${mock.url}/members/m1/passes/${pass!.id}`, { headers });
    expect(await res.json()).toEqual(pass);
    expect(mock.state()).toEqual({ collections: {} });
    expect(() => mock.setState({ '/members/m1/passes': [{ status: 'lost' }] })).toThrow(
      /^setState\(\): "\/members\/m1\/passes"\[0\] \(id "pas_\w{26}"\) does not fit the contract: \/status: /,
    );
  });

  test('data: a file of partial fixtures is completed from the seed', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'data-')), 'data.json');
    await writeFile(file, JSON.stringify({ '/members/m1/credentials': [{ kind: 'card' }] }));
    const [a, b] = await Promise.all([start({ seed: 4, data: file }), start({ seed: 4, data: file })]);
    expect(a.state().collections['/members/m1/credentials']).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^crd_[0-9A-HJKMNP-TV-Z]{26}$/), kind: 'card', label: null }),
    ]);
    expect(b.state()).toEqual(a.state());
  });

  test('stateFile: a new file takes the state option completed and checked; an existing one keeps its own', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'state-')), 'state.db');
    const state = { '/members/m1/credentials': [{ kind: 'pin' }] };
    const first = await start({ seed: 4, stateFile: file, state });
    const [made] = first.state().collections['/members/m1/credentials']!;
    expect(made).toMatchObject({ id: expect.stringMatching(/^crd_/), member_id: 'm1', kind: 'pin' });
    await first.close();
    running.splice(running.indexOf(first), 1);

    await expect(
      start({ stateFile: join(file, '..', 'other.db'), state: { '/members/m1/credentials': [{ kind: 'x' }] } }),
    ).rejects.toThrow(/the initial state: "\/members\/m1\/credentials"\[0\] .* does not fit the contract/);
    const second = await start({ seed: 5, stateFile: file, state: { '/members/m1/credentials': [] } });
    expect(second.state().collections['/members/m1/credentials']).toEqual([made]);
  });

  test('stateFile: the file is let go by close(), so a next mock may take it', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'state-')), 'state.db');
    const first = await start({ stateFile: file });
    await expect(start({ stateFile: file })).rejects.toThrow('is held by another running mock');
    await first.close();
    running.splice(running.indexOf(first), 1);
    await expect(start({ stateFile: file })).resolves.toBeDefined();
  });

  test('refuses stateless beside what gives or keeps state, which it would ignore', async () => {
    const refused = /stateless keeps no state: give data, stateFile, state or proxy\.recordState without it/;
    await expect(start({ stateless: true, state: { '/members/m1/passes': [] } })).rejects.toThrow(refused);
    await expect(start({ stateless: true, data: 'fixtures.json' })).rejects.toThrow(refused);
    await expect(start({ stateless: true, proxy: { url: 'http://127.0.0.1:9', recordState: true } })).rejects.toThrow(
      refused,
    );
    await expect(start({ stateless: true, proxy: { url: 'http://127.0.0.1:9' } })).resolves.toBeDefined();
  });

  test('rejects when the port is taken', async () => {
    const mock = await start();
    await expect(start({ port: mock.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

// A document given as an object (a parsed JSON or YAML file, one written in the test): no file to read or watch.
describe('startMock with the contract given as an object', () => {
  const document = {
    openapi: '3.0.3',
    info: { title: 'Things', version: '2.1.0' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          responses: {
            '200': {
              description: 'The things',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Things' }, example: ['a', 'b'] } },
            },
          },
        },
      },
    },
    components: { schemas: { Things: { type: 'array', items: { type: 'string' } } } },
  };

  test('serves an OpenAPI document given as an object, its references inside it, watched for nothing', async () => {
    const mock = await startMock({ contract: document, watch: true, log: 'off' });
    try {
      expect(mock.mock.contract).toMatchObject({ title: 'Things', version: '2.1.0' });
      const res = await fetch(`${mock.url}/things`);
      expect(res.status).toBe(200);
      // Drawn from the schema behind the reference: a list of strings.
      expect(await res.json()).toEqual(expect.arrayContaining([expect.any(String)]));
      expect(mock.calls({ operationId: 'listThings' })).toHaveLength(1);
    } finally {
      await mock.close();
    }
  });

  test('serves it as one API of several too', async () => {
    const mock = await startMock({ contracts: [{ name: 'things', contract: document, mount: '/t' }], log: 'off' });
    try {
      expect((await fetch(`${mock.url}/t/things`)).status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  test('refuses an object that is no OpenAPI document with a ContractError saying so', async () => {
    const refused = startMock({ contract: { paths: {} }, log: 'off' });
    await expect(refused).rejects.toBeInstanceOf(ContractError);
    await expect(refused).rejects.toThrow(
      'The contract given as an object is neither an OpenAPI document nor a Postman collection',
    );
  });

  test('refuses a reference to another file, which an object has no folder to read from', async () => {
    const outside = {
      ...document,
      paths: { '/things': { get: { responses: { '200': { $ref: './responses.yaml#/Things' } } } } },
    };
    await expect(startMock({ contract: outside, log: 'off' })).rejects.toThrow(/responses\.yaml/);
  });
});
