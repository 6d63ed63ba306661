import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { DEFAULT_CONTRACT, loadContract, type Contract, type Operation } from '../../mock/index.js';
import { createRequestValidator } from '../../mock/plan/request-validator.js';
import { splitValidation, toPrismRequest, type RequestFacts } from '../../mock/prism/prism-adapter.js';
import { validators } from '../../mock/prism/prism-modules.js';

let contract: Contract;
let library: Contract;
beforeAll(async () => {
  contract = await loadContract(DEFAULT_CONTRACT);
  library = await loadContract('test/fixtures/library.openapi.yaml');
});
afterEach(() => vi.restoreAllMocks());

const operation = (id: string, from = () => contract): Operation => from().operations.find((op) => op.id === id)!;
const AUTH = { authorization: 'Bearer t' };

function createCredential(body: unknown, extra: Partial<RequestFacts> = {}): RequestFacts {
  const headers = { ...AUTH, 'content-type': 'application/json', 'content-length': '20' };
  return { method: 'POST', path: '/members/m1/credentials', query: {}, headers, body, ...extra };
}

describe('splitValidation finds exactly what Prism’s validateInput finds, body findings first', () => {
  // Seed and runs fixed so a failure replays: `fc.assert(..., { seed: 20261122, numRuns: 400 })`.
  test('for any request to any operation of our contract and the library fixture (property, seed 20261122)', () => {
    const memberId = fc.constantFrom('m1', 'mbr_01', 'm 1', '', 'x'.repeat(70));
    const query = fc.record(
      { limit: fc.constantFrom('1', '100', '101', '0', 'ten', ''), cursor: fc.constantFrom('abc', '') },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(null, false, 0, '', [], 'text', { kind: 'pin' }, { kind: 'retina' }, {}),
      fc.record(
        { kind: fc.constantFrom('pin', 'card', 'x', 3), label: fc.constantFrom('Desk', null, 5, 'x'.repeat(300)) },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          name: fc.constantFrom('Gym', '', 7),
          valid_from: fc.constantFrom('2026-01-01T00:00:00Z', 'soon'),
          extra: fc.constant(1),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        { title: fc.constantFrom('Dune', ''), genre: fc.constantFrom('poetry', 'cooking') },
        { requiredKeys: [] },
      ),
    );
    const contentType = fc.constantFrom('application/json', 'text/plain', 'application/merge-patch+json', undefined);
    const operations = fc.constantFrom(
      ...[
        'listPasses',
        'createPass',
        'getPass',
        'deletePass',
        'listCredentials',
        'createCredential',
        'deleteCredential',
      ].map((id) => () => operation(id)),
      () => operation('shelveBook', () => library),
      () => operation('listBooks', () => library),
    );
    fc.assert(
      fc.property(
        operations,
        memberId,
        query,
        body,
        contentType,
        fc.boolean(),
        (op, member, q, sent, type, signedIn) => {
          const { spec, path: template } = op();
          const path = template.replace('{member_id}', encodeURIComponent(member)).replace(/\{[^}]+\}/g, 'id_1');
          const headers: Record<string, string> = signedIn ? { ...AUTH } : {};
          if (type) headers['content-type'] = type;
          if (sent !== undefined) headers['content-length'] = String(JSON.stringify(sent)?.length ?? 1);
          const request = toPrismRequest({ method: spec.method.toUpperCase(), path, query: q, headers, body: sent });
          const whole = validators.validateInput({ resource: spec, element: request });
          const expected = whole._tag === 'Right' ? [] : whole.left.filter((d) => d.severity === 0);
          const parts = splitValidation(spec);
          expect([...parts.body(request), ...parts.parameters(request)]).toEqual(expected);
        },
      ),
      { seed: 20261122, numRuns: 400 },
    );
  });
});

describe('createRequestValidator', () => {
  test('answers a repeated request from its memo, without asking Prism again', () => {
    const validate = createRequestValidator(operation('createCredential').spec);
    const prism = vi.spyOn(validators, 'validateInput');
    expect(validate(createCredential({ kind: 'pin' }), true)).toEqual({ ok: true });
    const first = prism.mock.calls.length;
    expect(first).toBe(2);
    expect(validate(createCredential({ kind: 'pin' }), true)).toEqual({ ok: true });
    expect(prism.mock.calls.length).toBe(first);
  });

  test('validates a new body alone when the path, query and headers were seen before', () => {
    const validate = createRequestValidator(operation('createCredential').spec);
    validate(createCredential({ kind: 'pin' }), true);
    const prism = vi.spyOn(validators, 'validateInput');
    const verdict = validate(createCredential({ kind: 'retina' }), true);
    expect(verdict).toMatchObject({
      ok: false,
      kind: 'invalidBody',
      violations: [{ location: 'body', pointer: '/kind' }],
    });
    expect(prism.mock.calls.map(([{ resource }]) => resource.request?.path)).toEqual([undefined]);
  });

  test('validates a body over 2 KiB of JSON every time', () => {
    const validate = createRequestValidator(operation('createCredential').spec);
    const big = { kind: 'pin', label: 'x'.repeat(3000) };
    validate(createCredential(big), true);
    const prism = vi.spyOn(validators, 'validateInput');
    expect(validate(createCredential(big), true)).toMatchObject({ ok: false, kind: 'invalidBody' });
    expect(prism).toHaveBeenCalledOnce();
  });

  test('remembers nothing across validators: two mocks of one contract ask Prism each', () => {
    const spec = operation('createCredential').spec;
    const first = createRequestValidator(spec);
    const second = createRequestValidator(spec);
    first(createCredential({ kind: 'pin' }), true);
    const prism = vi.spyOn(validators, 'validateInput');
    second(createCredential({ kind: 'pin' }), true);
    expect(prism).toHaveBeenCalledTimes(2);
  });

  test.each([
    [
      'a missing token',
      createCredential({ kind: 'pin' }, { headers: { 'content-type': 'application/json' } }),
      'unauthorized',
    ],
    ['no body', createCredential(undefined, { headers: AUTH }), 'missingBody'],
    ['a falsy body', createCredential(null), 'invalidBody'],
    [
      'a media type not documented',
      createCredential('kind=pin', { headers: { ...AUTH, 'content-type': 'text/plain', 'content-length': '8' } }),
      'unsupportedMediaType',
    ],
    [
      'a bad path parameter',
      createCredential({ kind: 'pin' }, { path: '/members/m%201/credentials' }),
      'invalidRequest',
    ],
  ])('refuses %s with the problem kind that says it', (_name, facts, kind) => {
    expect(createRequestValidator(operation('createCredential').spec)(facts, true)).toMatchObject({ ok: false, kind });
  });

  test('skips the security check when asked to', () => {
    const facts = createCredential(
      { kind: 'pin' },
      { headers: { 'content-type': 'application/json', 'content-length': '14' } },
    );
    expect(createRequestValidator(operation('createCredential').spec)(facts, false)).toEqual({ ok: true });
  });
});
