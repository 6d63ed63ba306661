import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import '../../mock/testing/vitest.js';
import { connectMock, DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess } from '../support/cli-process.js';
import { AUTH, newServer } from '../support/harness.js';

let cli: CliProcess;
beforeAll(async () => {
  cli = await CliProcess.start(['--port', '0', '--log', 'off'], { contract: DEFAULT_CONTRACT });
});
afterAll(() => cli.stop());

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { ...AUTH, ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('a mock in another process, through connectMock', () => {
  test('the same matchers work remotely', async () => {
    const mock = connectMock(cli.url, { session: 'remote-matchers' });
    await post(`${cli.url}/members/m1/credentials`, { kind: 'mobile' }, { 'X-Mock-Session': 'remote-matchers' });
    await expect(mock).toHaveReceived('createCredential', {
      pathParams: { member_id: 'm1' },
      body: { kind: 'mobile' },
    });
    await expect(mock).toHaveReceivedTimes('createCredential', 1);
    await expect(expect(mock).toHaveReceived('createCredential', { body: { kind: 'pin' } })).rejects.toThrow(
      /body.kind: expected "pin", received "mobile"/,
    );
  });

  test('a remote matcher rejects on an operationId the contract lacks, naming the nearest', async () => {
    const mock = connectMock(cli.url, { session: 'remote-misspelt' });
    await expect(expect(mock).not.toHaveReceived('deletePas')).rejects.toThrow(
      /answered 400: "deletePas" is not an operationId of the contract\. Did you mean deletePass\?/,
    );
  });

  test('calls, count, waitForCall, override, state and reset speak to the admin API', async () => {
    const mock = connectMock(cli.url, { session: 'remote-api' });
    const headers = { ...AUTH, 'X-Mock-Session': 'remote-api' };
    const waiting = mock.waitForCall({ operationId: 'listPasses' }, { timeout: 3000 });
    await fetch(`${cli.url}/members/m9/passes`, { headers });
    expect((await waiting)?.pathParams).toEqual({ member_id: 'm9' });
    expect(await mock.count({ operationId: 'listPasses' })).toBe(1);
    expect((await mock.calls())[0]!.response.status).toBe(200);
    // A read keeps nothing; a create makes the collection state.
    expect(await mock.state()).toEqual({ collections: {} });
    const created = { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{}' };
    expect((await fetch(`${cli.url}/members/m9/passes`, created)).status).toBe(201);
    expect(Object.keys((await mock.state()).collections)).toEqual(['/members/m9/passes']);

    const override = await mock.override({ operationId: 'listPasses', status: 429, times: 1 });
    expect(override.remaining).toBe(1);
    expect((await fetch(`${cli.url}/members/m9/passes`, { headers })).status).toBe(429);
    await expect(mock.override({ operationId: 'listPasses', status: 418 })).rejects.toThrow(
      /422: The override was refused: status 418 is not documented/,
    );

    await mock.reset();
    expect(await mock.calls()).toEqual([]);
    await expect(mock.waitForCall({ operationId: 'getPass' }, { timeout: 50 })).rejects.toThrow(
      'waitForCall: no call getPass arrived within 50 ms.\nThe mock received no calls.',
    );
  });
});

describe('setState through connectMock', () => {
  test('seeds the client’s session alone, partial records completed', async () => {
    const mock = connectMock(cli.url, { session: 'remote-state' });
    const state = await mock.setState({ collections: { '/members/m1/passes': [{ status: 'suspended' }] } });
    const [pass] = state.collections['/members/m1/passes']!;
    expect(pass).toMatchObject({ id: expect.stringMatching(/^pas_[0-9A-HJKMNP-TV-Z]{26}$/), status: 'suspended' });
    const res = await fetch(`${cli.url}/members/m1/passes`, { headers: { ...AUTH, 'X-Mock-Session': 'remote-state' } });
    expect(((await res.json()) as { data: unknown[] }).data).toEqual([pass]);
    expect(await mock.state()).toEqual(state);
    expect(await connectMock(cli.url, { session: 'remote-other' }).state()).toEqual({ collections: {} });
  });

  test('rejects with the fixtures’ message naming the record, and changes nothing', async () => {
    const mock = connectMock(cli.url, { session: 'remote-refused' });
    await expect(mock.setState({ '/members/m1/passes': [{}, { status: 'lost' }] })).rejects.toThrow(
      /answered 422: PUT \/__mock\/state: "\/members\/m1\/passes"\[1\] \(id "pas_\w{26}"\) does not fit the contract: \/status: must be equal to one of the allowed values/,
    );
    expect(await mock.state()).toEqual({ collections: {} });
  });
});

describe('connectMock on the wire', () => {
  test('calls() follows the pages of /__mock/calls to the last', async () => {
    const mock = await newServer({ journalBodyLimit: 65_536 });
    try {
      // 80 calls of 60 KB: several pages of about 1 MiB.
      const body = JSON.stringify('x'.repeat(60_000));
      const headers = { ...AUTH, 'Content-Type': 'application/json' };
      for (let i = 0; i < 80; i++) await fetch(`${mock.url}/members/m1/passes`, { method: 'POST', headers, body });
      const first = (await (await fetch(`${mock.url}/__mock/calls?limit=1000`)).json()) as { next_cursor: unknown };
      expect(first.next_cursor).toEqual(expect.any(String));
      const calls = await connectMock(mock.url).calls();
      expect(calls.map((c) => c.id)).toEqual(Array.from({ length: 80 }, (_, i) => `call-${i + 1}`));
    } finally {
      await mock.close();
    }
  });

  test('every change it asks for is a JSON request, with a body of {} when it has nothing to say', async () => {
    const seen: { method: string; type: string | undefined; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ method: req.method!, type: (req.headers as IncomingHttpHeaders)['content-type'], body });
        res.writeHead(204).end();
      });
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const mock = connectMock(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      await mock.reset();
      await mock.clearOverrides();
      expect(seen).toEqual([
        { method: 'POST', type: 'application/json', body: '{}' },
        { method: 'DELETE', type: 'application/json', body: '{}' },
      ]);
    } finally {
      server.close();
    }
  });

  test('drops the slashes a URL ends with', () => {
    expect(connectMock('http://127.0.0.1:4010///').url).toBe('http://127.0.0.1:4010');
    expect(connectMock('http://127.0.0.1:4010').url).toBe('http://127.0.0.1:4010');
  });
});
