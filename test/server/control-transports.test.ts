// The in-process test API, the admin endpoints and connectMock carry one control surface (control/control.ts):
// the same input is refused with the same words by each, and a change made through one is seen by the others.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connectMock, startMock, type RunningMock } from '../../mock/index.js';
import { AUTH } from '../support/harness.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ seed: 5 });
});
afterAll(() => mock.close());

/** The problem's detail of an admin request. */
async function detailOf(method: string, path: string, body?: unknown): Promise<string> {
  const init =
    body === undefined
      ? { method }
      : { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(`${mock.url}/__mock${path}`, init);
  expect(res.status).toBeGreaterThanOrEqual(400);
  return ((await res.json()) as { detail: string }).detail;
}

/** What a function threw or rejected with. */
async function thrown(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('it did not throw');
}

test('a misspelt operationId is refused with the same words in process, over HTTP and through connectMock', async () => {
  const words =
    '"listPass" is not an operationId of the contract. Did you mean listPasses? It has listPasses, createPass, ' +
    'getPass, deletePass, listCredentials, createCredential, deleteCredential.';
  expect(await thrown(() => mock.calls({ operationId: 'listPass' }))).toBe(`calls(): ${words}`);
  expect(await detailOf('GET', '/calls?operationId=listPass')).toBe(words);
  expect(await thrown(() => connectMock(mock.url).calls({ operationId: 'listPass' }))).toContain(
    `answered 400: ${words}`,
  );
  expect(await thrown(() => mock.waitForCall({ operationId: 'listPass' }))).toBe(`waitForCall(): ${words}`);
  expect(await detailOf('POST', '/calls/wait', { match: { operationId: 'listPass' } })).toBe(words);
});

test('a wait past the longest is refused the same way by each', async () => {
  const words = 'timeout must be milliseconds from 0 to 60000.';
  expect(await thrown(() => mock.waitForCall({}, { timeout: 60_001 }))).toBe(`waitForCall(): ${words}`);
  expect(await detailOf('POST', '/calls/wait', { timeout: 60_001 })).toBe(words);
  expect(await thrown(() => connectMock(mock.url).waitForCall({}, { timeout: 60_001 }))).toContain(words);
});

test('a wait that times out names the closest calls in process and through connectMock alike', async () => {
  const remote = connectMock(mock.url, { session: 'timeouts' });
  await fetch(`${mock.url}/members/m1/passes`, { headers: { ...AUTH, 'X-Mock-Session': 'timeouts' } });
  const inProcess = await thrown(() =>
    mock.waitForCall({ operationId: 'getPass' }, { session: 'timeouts', timeout: 20 }),
  );
  expect(inProcess).toMatch(
    /^waitForCall: no call getPass arrived within 20 ms\.\nClosest calls:\n {2}call-\d+ GET \/members\/m1\/passes/,
  );
  expect(await thrown(() => remote.waitForCall({ operationId: 'getPass' }, { timeout: 20 }))).toBe(inProcess);
});

test('an override set over HTTP is one the in-process API lists and clears', async () => {
  const remote = connectMock(mock.url, { session: 'overrides' });
  const set = await remote.override({ operationId: 'getPass', status: 404 });
  const res = await fetch(`${mock.url}/__mock/overrides`, { headers: { 'X-Mock-Session': 'overrides' } });
  expect(((await res.json()) as { overrides: { id: string }[] }).overrides.map((o) => o.id)).toEqual([set.id]);
  mock.clearOverrides('overrides');
  expect(await thrown(() => remote.override({ operationId: 'getPass', status: 418 }))).toContain(
    'The override was refused: status 418 is not documented',
  );
});

test('the state has one shape, { collections }, in process, over HTTP and through connectMock', async () => {
  const remote = connectMock(mock.url, { session: 'shape' });
  const put = await remote.setState({ '/members/m1/passes': [{ status: 'suspended' }] });
  expect(Object.keys(put)).toEqual(['collections']);
  const res = await fetch(`${mock.url}/__mock/state`, { headers: { 'X-Mock-Session': 'shape' } });
  expect(await res.json()).toEqual(put);
  expect(await remote.state()).toEqual(put);
  expect(mock.state('shape')).toEqual(put);
  // What one gives, another takes back as it is.
  expect(mock.setState(await remote.state(), 'shape-copy')).toEqual(put);
});
