import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import '../../mock/testing/vitest.js';
import type { MockApp } from '../../mock/index.js';
import { CallWaitTimeout } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

let mock: MockApp;
beforeEach(async () => {
  mock = await newMock({ seed: 3, clock: 'seed' });
  await request(mock.app).get('/members/m1/credentials').set(AUTH);
  await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'card', label: 'Work' });
  await request(mock.app).post('/members/m2/credentials').set(AUTH).send({ kind: 'pin' });
});

/** The message of a failed expectation, with ids and times kept stable for the snapshot. */
function failure(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the assertion passed');
}

describe('vitest matchers over recorded calls', () => {
  test('toHaveReceived passes on a partial match of pathParams and body', () => {
    expect(mock).toHaveReceived('createCredential', { pathParams: { member_id: 'm1' }, body: { kind: 'card' } });
    expect(mock).not.toHaveReceived('deletePass');
  });

  test('toHaveReceivedTimes counts matching calls', () => {
    expect(mock).toHaveReceivedTimes('createCredential', 2);
    expect(mock).toHaveReceivedTimes('createCredential', 1, { body: { kind: 'pin' } });
  });

  test('toHaveReceivedInOrder accepts other calls between the steps', () => {
    expect(mock).toHaveReceivedInOrder([
      'listCredentials',
      { operationId: 'createCredential', pathParams: { member_id: 'm2' } },
    ]);
    expect(mock).not.toHaveReceivedInOrder([
      { operationId: 'createCredential', pathParams: { member_id: 'm2' } },
      'listCredentials',
    ]);
  });

  test('the failure messages show the closest calls and how they differ', () => {
    expect(
      failure(() =>
        expect(mock).toHaveReceived('createCredential', { pathParams: { member_id: 'm1' }, body: { kind: 'pin' } }),
      ),
    ).toMatchSnapshot('toHaveReceived');
    expect(
      failure(() => expect(mock).toHaveReceivedTimes('createCredential', 3, { body: { kind: 'card' } })),
    ).toMatchSnapshot('toHaveReceivedTimes');
    expect(failure(() => expect(mock).toHaveReceivedInOrder(['createCredential', 'listCredentials']))).toMatchSnapshot(
      'toHaveReceivedInOrder',
    );
    expect(failure(() => expect(mock).toHaveReceived('deletePass'))).toMatchSnapshot('no such operation called');
  });

  test('waitForCall resolves when a later call arrives, and rejects after the timeout saying what came instead', async () => {
    const waiting = mock.waitForCall({ operationId: 'deletePass' }, { timeout: 2000 });
    // The wait has started and found nothing: the call below comes after it.
    expect(await Promise.race([waiting, Promise.resolve('still waiting')])).toBe('still waiting');
    await request(mock.app).delete('/members/m1/passes/x').set(AUTH);
    expect((await waiting)?.operationId).toBe('deletePass');
    const late = mock.waitForCall({ operationId: 'getPass' }, { timeout: 50 });
    await expect(late).rejects.toThrow(CallWaitTimeout);
    await expect(late).rejects.toThrow(/^waitForCall: no call getPass arrived within 50 ms\.\nClosest calls:\n/);
    await expect(late).rejects.toThrow('- operationId: expected "getPass", received "listCredentials"');
  });

  test('GET /__mock/calls/count counts with the same filters', async () => {
    expect((await request(mock.app).get('/__mock/calls/count?operationId=createCredential').expect(200)).body).toEqual({
      count: 2,
    });
  });

  test('GET /__mock/calls/wait long-polls, and answers 408 when nothing came', async () => {
    // The call is sent once the long-poll has reached the mock, so it arrives while the long-poll waits.
    let reached!: () => void;
    const polling = new Promise<void>((resolve) => (reached = resolve));
    const answer = request((req: IncomingMessage, res: ServerResponse) => {
      mock.app(req, res);
      reached();
    })
      .get('/__mock/calls/wait?operationId=getPass&timeout=2000')
      .then((r) => r);
    await polling;
    await request(mock.app).get('/members/m1/passes/p1').set(AUTH);
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.call).toMatchObject({ operationId: 'getPass', path: '/members/m1/passes/p1' });
    await request(mock.app).get('/__mock/calls/wait?operationId=deletePass&timeout=20').expect(408);
  });

  test('POST /__mock/calls/wait matches on the body, and `since` skips calls already seen', async () => {
    const res = await request(mock.app)
      .post('/__mock/calls/wait')
      .send({ match: { body: { kind: 'pin' } }, timeout: 100 })
      .expect(200);
    expect(res.body.call.pathParams).toEqual({ member_id: 'm2' });
    await request(mock.app)
      .post('/__mock/calls/wait')
      .send({ match: { body: { kind: 'pin' } }, timeout: 50, since: res.body.call.id })
      .expect(408);
  });

  test.each([
    [{ method: 5 }, 'match.method must be a string.'],
    [{ path: ['/a'] }, 'match.path must be a string.'],
    [{ status: '201' }, 'match.status must be a number.'],
    [{ query: 'a=1' }, 'match.query must be an object.'],
    [[], 'match must be an object: { operationId, contract, method, path, pathParams, query, headers, body, status }.'],
  ])('POST /__mock/calls/wait refuses the match %j with a 400 that says why', async (match, detail) => {
    const res = await request(mock.app).post('/__mock/calls/wait').send({ match, timeout: 10 }).expect(400);
    expect(res.body.detail).toBe(detail);
  });

  test('POST /__mock/calls/wait refuses `params`, saying path parameters are pathParams', async () => {
    const res = await request(mock.app)
      .post('/__mock/calls/wait')
      .send({ match: { params: { member_id: 'm1' } }, timeout: 10 })
      .expect(400);
    expect(res.body.detail).toBe('match.params is not a field of a match: path parameters are pathParams.');
  });

  test('POST /__mock/calls/wait refuses an operationId the contract lacks, naming the nearest', async () => {
    const res = await request(mock.app)
      .post('/__mock/calls/wait')
      .send({ match: { operationId: 'deletePas' }, timeout: 10 })
      .expect(400);
    expect(res.body.detail).toMatch(/^"deletePas" is not an operationId of the contract\. Did you mean deletePass\?/);
  });

  test.each(['/__mock/calls', '/__mock/calls/count', '/__mock/calls/wait'])(
    'GET %s refuses an operationId the contract lacks with a 400 on the parameter',
    async (path) => {
      const res = await request(mock.app).get(`${path}?operationId=listPass`).expect(400);
      expect(res.body.detail).toMatch(/"listPass" is not an operationId of the contract\. Did you mean listPasses\?/);
      expect(res.body.violations).toEqual([expect.objectContaining({ location: 'query', pointer: '/operationId' })]);
    },
  );
});

describe('a misspelt name fails the test instead of matching nothing', () => {
  test('toHaveReceived and its .not throw on an operationId the contract lacks', () => {
    expect(() => expect(mock).not.toHaveReceived('deletePas')).toThrow(
      /"deletePas" is not an operationId of the contract\. Did you mean deletePass\?/,
    );
    expect(() => expect(mock).toHaveReceivedTimes('listCredential', 0)).toThrow(/Did you mean listCredentials\?/);
  });

  test('toHaveReceivedInOrder throws on a step whose operationId the contract lacks', () => {
    expect(() => expect(mock).not.toHaveReceivedInOrder(['listCredentials', 'createCredentials'])).toThrow(
      /"createCredentials" is not an operationId/,
    );
  });

  test('an operationId some call has is never put to the contract again', () => {
    const asked: unknown[] = [];
    const source = {
      calls: (filter?: { operationId?: string }) => {
        asked.push(filter);
        return mock.calls(filter);
      },
    };
    expect(source).toHaveReceived('createCredential');
    expect(source).not.toHaveReceived('deletePass');
    expect(asked).toEqual([undefined, undefined, { operationId: 'deletePass' }]);
  });

  test('a matcher throws on `params`, saying path parameters are pathParams', () => {
    // @ts-expect-error: `params` is not a field of a match.
    expect(() => expect(mock).toHaveReceived('createCredential', { params: { member_id: 'm1' } })).toThrow(
      'match.params is not a field of a match: path parameters are pathParams.',
    );
  });

  test('toHaveReceivedTimes refuses a count that is not a whole number', () => {
    expect(() => expect(mock).toHaveReceivedTimes('createCredential', -1)).toThrow(
      'toHaveReceivedTimes: times must be a whole number from 0, not -1.',
    );
  });

  test('calls() throws on an operationId the contract lacks', () => {
    expect(() => mock.calls({ operationId: 'getPasses' })).toThrow(
      /^calls\(\): "getPasses" is not an operationId of the contract\. Did you mean getPass\?/,
    );
  });

  test('waitForCall() rejects at once on an operationId the contract lacks, or a field a match lacks', async () => {
    await expect(mock.waitForCall({ operationId: 'createPas' }, { timeout: 60_000 })).rejects.toThrow(
      /^waitForCall\(\): "createPas" is not an operationId of the contract\. Did you mean createPass\?/,
    );
    // @ts-expect-error: `params` is not a field of a match.
    await expect(mock.waitForCall({ params: { member_id: 'm1' } }, { timeout: 60_000 })).rejects.toThrow(
      'waitForCall(): match.params is not a field of a match: path parameters are pathParams.',
    );
  });
});
