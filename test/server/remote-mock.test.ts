import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import '../../mock/testing/vitest.js';
import { connectMock, DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess } from '../support/cli-process.js';
import { AUTH } from '../support/harness.js';

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
    await expect(mock).toHaveReceived('createCredential', { params: { member_id: 'm1' }, body: { kind: 'mobile' } });
    await expect(mock).toHaveReceivedTimes('createCredential', 1);
    await expect(expect(mock).toHaveReceived('createCredential', { body: { kind: 'pin' } })).rejects.toThrow(
      /body.kind: expected "pin", received "mobile"/,
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
    expect(Object.keys(await mock.state())).toEqual(['/members/m9/passes']);

    const override = await mock.override({ operationId: 'listPasses', status: 429, times: 1 });
    expect(override.remaining).toBe(1);
    expect((await fetch(`${cli.url}/members/m9/passes`, { headers })).status).toBe(429);
    await expect(mock.override({ operationId: 'listPasses', status: 418 })).rejects.toThrow(
      /422: The override was refused: status 418 is not documented/,
    );

    await mock.reset();
    expect(await mock.calls()).toEqual([]);
    expect(await mock.waitForCall({ operationId: 'getPass' }, { timeout: 50 })).toBeUndefined();
  });
});
