// The test API typed from the contract (openapi-typescript's `operations`). The `@ts-expect-error` lines are
// the tests of the types: `npm run typecheck` fails when one of them stops being an error.
import { afterAll, beforeAll, describe, expect, expectTypeOf, inject, test } from 'vitest';
import '../../mock/testing/vitest.js';
import type { components, operations } from '../../contracts/membership.js';
import { connectMock, startMock, type RunningMock } from '../../mock/index.js';
import { AUTH } from '../support/harness.js';

type Pass = components['schemas']['Pass'];

let mock: RunningMock<operations>;
beforeAll(async () => {
  mock = await startMock<operations>({ seed: 5 });
  await fetch(`${mock.url}/members/m1/credentials`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify({ kind: 'pin' }),
  });
});
afterAll(() => mock.close());

describe('startMock<operations>() types the test API from the contract', () => {
  test('calls() of one operation have its path parameters and body types', () => {
    const [call] = mock.calls({ operationId: 'createCredential' });
    expectTypeOf(call!.pathParams).toEqualTypeOf<{ member_id: string }>();
    expectTypeOf(call!.body).toEqualTypeOf<
      operations['createCredential']['requestBody']['content']['application/json'] | undefined
    >();
    expect(call!.pathParams.member_id).toBe('m1');
    expect(call!.body?.kind).toBe('pin');
    // @ts-expect-error: createCredential has no pass_id.
    void call!.pathParams.pass_id;
  });

  test('an operationId the contract lacks is a type error, as it is an error at run time', () => {
    // @ts-expect-error: there is no operation createPas.
    expect(() => mock.calls({ operationId: 'createPas' })).toThrow(/Did you mean createPass\?/);
  });

  test('waitForCall resolves with the typed call of the operation it names', async () => {
    const call = await mock.waitForCall({ operationId: 'createCredential', body: { kind: 'pin' } });
    expectTypeOf(call.operationId).toEqualTypeOf<'createCredential'>();
    expect(call.pathParams.member_id).toBe('m1');
    const wrongKind = { operationId: 'createCredential', body: { kind: 'password' } } as const;
    // @ts-expect-error: a credential's kind is pin, card or mobile.
    await expect(mock.waitForCall(wrongKind, { timeout: 1 })).rejects.toThrow(/no call createCredential/);
  });

  test('override takes a status the operation documents, and a body of that status', () => {
    const body: Pass = {
      id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M',
      member_id: 'm1',
      name: 'Gold',
      status: 'suspended',
      valid_from: '2025-01-01T00:00:00Z',
      valid_until: null,
      created_at: '2025-01-01T00:00:00Z',
    };
    const override = mock.override({ operationId: 'getPass', status: 200, body, times: 1 });
    expect(override.remaining).toBe(1);
    mock.clearOverrides();
    // @ts-expect-error: getPass does not document 418.
    expect(() => mock.override({ operationId: 'getPass', status: 418 })).toThrow(/418 is not documented/);
    // @ts-expect-error: a pass has no field `colour`.
    expect(() => mock.override({ operationId: 'getPass', status: 200, body: { ...body, colour: 'red' } })).toThrow(
      "body: /: must NOT have additional properties; found 'colour'",
    );
  });

  test('the matchers take the operation types from the mock they are given', async () => {
    expect(mock).toHaveReceived('createCredential', { pathParams: { member_id: 'm1' }, body: { kind: 'pin' } });
    // @ts-expect-error: there is no operation createCredentials.
    expect(() => expect(mock).toHaveReceived('createCredentials')).toThrow(/Did you mean createCredential\?/);
    // @ts-expect-error: createCredential's path parameter is member_id.
    expect(() => expect(mock).toHaveReceived('createCredential', { pathParams: { memberId: 'm1' } })).toThrow(
      'pathParams.memberId: expected "m1", received nothing',
    );
    const remote = connectMock<operations>(mock.url);
    const pending = expect(remote).toHaveReceived('createCredential', { body: { kind: 'pin' } });
    // A remote matcher is a promise, so a missing `await` is a floating promise to the linter.
    expectTypeOf(pending).toEqualTypeOf<Promise<void>>();
    await pending;
    expectTypeOf(expect(mock).toHaveReceived('createCredential')).toEqualTypeOf<void>();
  });
});

describe('membership-mock/vitest types what mockGlobalSetup provides', () => {
  test("inject('mockUrl') is a string, and a name it does not provide does not compile", () => {
    // Not called: this run has no global setup to provide it; the types are the test.
    const mockUrl = () => inject('mockUrl');
    expectTypeOf(mockUrl).returns.toEqualTypeOf<string>();
    // @ts-expect-error: mockGlobalSetup provides no mockURL.
    void (() => inject('mockURL'));
  });
});
