import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { DEFAULT_CONTRACT, loadContract, type Contract, type Operation } from '../../mock/index.js';
import { createRequestValidator } from '../../mock/plan/request-validator.js';
import { judge, splitValidation, toPrismRequest, VALID, type RequestFacts } from '../../mock/prism/prism-adapter.js';
import { sharedSchemaCompiler, validators } from '../../mock/prism/prism-modules.js';

let contract: Contract;
let library: Contract;
let media: Contract;
beforeAll(async () => {
  contract = await loadContract(DEFAULT_CONTRACT);
  library = await loadContract('test/fixtures/library.openapi.yaml');
  const dir = await mkdtemp(join(tmpdir(), 'media-'));
  await writeFile(join(dir, 'media.yaml'), MEDIA_CONTRACT);
  media = await loadContract(join(dir, 'media.yaml'));
});

const READ_ONLY_ID_AND_NOTE =
  '{ type: object, properties: { id: { type: string, readOnly: true }, note: { type: string, maxLength: 5 } } }';

/** Request bodies of many media types: wildcards, forms, text, allOf and readOnly fields, optional and required. */
const MEDIA_CONTRACT = `
openapi: 3.0.3
info: { title: Media, version: '1' }
paths:
  /things/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string, pattern: '^[a-z0-9]+$' } }]
    put:
      operationId: putThing
      requestBody:
        required: true
        content:
          application/json:
            schema:
              allOf:
                - { type: object, required: [kind], properties: { kind: { type: string, enum: [pin, card] } } }
                - ${READ_ONLY_ID_AND_NOTE}
          application/*+json: { schema: { type: object, required: [patch], properties: { patch: { type: array } } } }
          application/x-www-form-urlencoded: { schema: { type: object, properties: { kind: { type: string } } } }
          text/plain: { schema: { type: string, maxLength: 3 } }
      responses: { '204': { description: ok } }
    patch:
      operationId: patchThing
      parameters: [{ name: X-Trace, in: header, required: true, schema: { type: string, minLength: 2 } }]
      requestBody:
        content:
          '*/*': { schema: { type: object, additionalProperties: false, properties: { kind: { type: string } } } }
      responses: { '204': { description: ok } }
    get:
      operationId: getThing
      parameters: [{ name: limit, in: query, schema: { type: integer, maximum: 100 } }]
      responses: { '200': { description: ok } }
`;
afterEach(() => vi.restoreAllMocks());

const operation = (id: string, from = () => contract): Operation => from().operations.find((op) => op.id === id)!;
const AUTH = { authorization: 'Bearer t' };

function createCredential(body: unknown, extra: Partial<RequestFacts> = {}): RequestFacts {
  const headers = { ...AUTH, 'content-type': 'application/json', 'content-length': '20' };
  return { method: 'POST', path: '/members/m1/credentials', query: {}, headers, body, ...extra };
}

describe('splitValidation finds what Prism’s validateInput finds (body findings first), and the empty values it skips', () => {
  // Seed and runs fixed so a failure replays: `fc.assert(..., { seed: 20261122, numRuns: 2000 })`.
  test('for any request to our contract, the library fixture and one of many media types (seed 20261122)', () => {
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
    const contentType = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/merge-patch+json',
      'application/x-www-form-urlencoded',
      'image/png',
      'garbage',
      'application/json; charset="unterminated',
      undefined,
    );
    const operations = fc.constantFrom(
      ...contract.operations.map((op) => () => op),
      () => operation('shelveBook', () => library),
      () => operation('listBooks', () => library),
      ...['putThing', 'patchThing', 'getThing'].map((id) => () => operation(id, () => media)),
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
          const headers: Record<string, string> = signedIn ? { ...AUTH, 'x-trace': 'ab' } : { 'x-trace': 'a' };
          if (type) headers['content-type'] = type;
          if (sent !== undefined) headers['content-length'] = String(JSON.stringify(sent)?.length ?? 1);
          const request = toPrismRequest({ method: spec.method.toUpperCase(), path, query: q, headers, body: sent });
          const parts = splitValidation(spec);
          const found = [...parts.body(request), ...parts.parameters(request)];
          // Without a body, the shortcut the validator takes finds what the body check finds.
          if (sent === undefined) expect(parts.noBody()).toEqual(parts.body(request));
          let whole: ReturnType<typeof validators.validateInput>;
          try {
            whole = validators.validateInput({ resource: spec, element: request });
          } catch {
            // Prism throws on a malformed Content-Type. The split answers instead: nothing about it when no
            // body came (the media type says nothing then), a 415 when one did.
            const refused = found.some((d) => d.code === 415);
            expect(sent === undefined ? !refused : refused).toBe(true);
            return;
          }
          // Prism reads an empty value as none; the split checks it as the empty string (see empty-values.ts).
          const ofEmptyValue = (d: { path?: string[] }) => d.path?.[0] === 'query' && q[d.path[1] as 'limit'] === '';
          expect(found.filter((d) => !ofEmptyValue(d))).toEqual(
            whole._tag === 'Right' ? [] : whole.left.filter((d) => d.severity === 0),
          );
        },
      ),
      { seed: 20261122, numRuns: 2000 },
    );
  });
});

/**
 * Counts what is asked of Prism from now on: validateInput (path, query, headers), and the JSON body schemas
 * compiled as Prism compiles them (a body is then checked with that check, without Prism's plumbing).
 */
function watchPrism(): { parameters: () => number; compiled: () => number } {
  const input = vi.spyOn(validators, 'validateInput');
  const compile = vi.spyOn(sharedSchemaCompiler('default'), 'compile');
  return { parameters: () => input.mock.calls.length, compiled: () => compile.mock.calls.length };
}

describe('createRequestValidator', () => {
  test('asks Prism about the path, query and headers once, and checks the body on every request', () => {
    const validate = createRequestValidator(operation('createCredential').spec);
    const prism = watchPrism();
    const body = { kind: 'pin' };
    expect(validate(createCredential(body), true)).toEqual({ ok: true });
    expect([prism.parameters(), prism.compiled()]).toEqual([1, 1]);
    // The same request, its body now breaking the schema: judged again, with the check compiled once.
    body.kind = 'retina';
    expect(validate(createCredential(body), true)).toMatchObject({ ok: false, kind: 'invalidBody' });
    expect([prism.parameters(), prism.compiled()]).toEqual([1, 1]);
  });

  test('refuses a new body that breaks the schema, with the path, query and headers seen before', () => {
    const validate = createRequestValidator(operation('createCredential').spec);
    validate(createCredential({ kind: 'pin' }), true);
    const prism = watchPrism();
    const verdict = validate(createCredential({ kind: 'retina' }), true);
    expect(verdict).toMatchObject({
      ok: false,
      kind: 'invalidBody',
      violations: [{ location: 'body', pointer: '/kind' }],
    });
    expect(prism.parameters()).toBe(0);
  });

  test('validates the path, query and headers again for a new member only, whatever the body length', () => {
    const validate = createRequestValidator(operation('createCredential').spec);
    validate(createCredential({ kind: 'pin' }), true);
    const prism = watchPrism();
    const longer = { ...AUTH, 'content-type': 'application/json', 'content-length': '30' };
    validate(createCredential({ kind: 'card', label: 'Desk' }, { headers: longer }), true);
    validate(createCredential({ kind: 'pin' }, { path: '/members/m2/credentials' }), true);
    expect(prism.parameters()).toBe(1);
  });

  test('remembers at most a megabyte of keys: long distinct paths make it start over', () => {
    const validate = createRequestValidator(operation('createCredential').spec);
    const member = (i: number) => `/members/${String(i).padStart(4000, 'm')}/credentials`;
    validate(createCredential({ kind: 'pin' }, { path: member(0) }), true);
    for (let i = 1; i < 300; i++) validate(createCredential({ kind: 'pin' }, { path: member(i) }), true);
    const prism = watchPrism();
    validate(createCredential({ kind: 'pin' }, { path: member(299) }), true);
    validate(createCredential({ kind: 'pin' }, { path: member(0) }), true);
    expect(prism.parameters()).toBe(1);
  });

  test('remembers a refusal for missing credentials, and still finds parameter errors when the check is off', () => {
    const validate = createRequestValidator(operation('createCredential').spec);
    const anonymous = createCredential(
      { kind: 'pin' },
      { path: '/members/m%201/credentials', headers: { 'content-type': 'application/json', 'content-length': '14' } },
    );
    expect(validate(anonymous, true)).toMatchObject({ ok: false, kind: 'unauthorized' });
    expect(validate(anonymous, false)).toMatchObject({
      ok: false,
      kind: 'invalidRequest',
      violations: [{ location: 'path' }],
    });
  });

  test('validators of one contract share the body schema made ready, so its check is compiled once', () => {
    const spec = operation('createCredential').spec;
    // The contract's own map of schemas made ready (Contract.prepared), fresh here.
    const prepared = new WeakMap<object, unknown>();
    const prism = watchPrism();
    createRequestValidator(spec, prepared)(createCredential({ kind: 'pin' }), true);
    createRequestValidator(spec, prepared)(createCredential({ kind: 'pin' }), true);
    expect(prism.compiled()).toBe(1);
    createRequestValidator(spec)(createCredential({ kind: 'pin' }), true);
    expect(prism.compiled()).toBe(2);
  });

  test('remembers nothing across validators: two mocks of one contract ask Prism each', () => {
    const spec = operation('createCredential').spec;
    const first = createRequestValidator(spec);
    const second = createRequestValidator(spec);
    first(createCredential({ kind: 'pin' }), true);
    const prism = watchPrism();
    second(createCredential({ kind: 'pin' }), true);
    expect([prism.parameters(), prism.compiled()]).toEqual([1, 1]);
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

  test('validates a form parsed by someone else (the app the mock is mounted in) from its fields', () => {
    const validate = createRequestValidator(operation('putThing', () => media).spec);
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '8' };
    const facts = (body: unknown): RequestFacts => ({
      method: 'PUT',
      path: '/things/a1',
      query: {},
      headers: form,
      body,
    });
    expect(validate(facts({ kind: 'pin' }), true)).toEqual({ ok: true });
  });

  test('refuses a body sent to an operation that declares none with 415', () => {
    const facts: RequestFacts = {
      method: 'POST',
      path: '/things/a1',
      query: {},
      headers: { 'content-type': 'text/plain', 'content-length': '5' },
      body: 'empty',
    };
    expect(createRequestValidator(operation('getThing', () => media).spec)(facts, true)).toMatchObject({
      ok: false,
      kind: 'unsupportedMediaType',
    });
  });

  test('skips the security check when asked to', () => {
    const facts = createCredential(
      { kind: 'pin' },
      { headers: { 'content-type': 'application/json', 'content-length': '14' } },
    );
    expect(createRequestValidator(operation('createCredential').spec)(facts, false)).toEqual({ ok: true });
  });
});

describe('createRequestValidator keys its memo by the headers the operation reads', () => {
  const patch = (headers: Record<string, string>) => ({
    method: 'PATCH',
    path: '/things/abc',
    query: {},
    headers,
    body: undefined,
  });

  test('tells an absent header from one whose value reads "undefined"', () => {
    const validate = createRequestValidator(operation('patchThing', () => media).spec);
    expect(validate(patch({}), true)).toMatchObject({ ok: false, violations: [{ location: 'header' }] });
    expect(validate(patch({ 'x-trace': 'undefined' }), true)).toBe(VALID);
  });

  test('tells two values of a header apart', () => {
    const validate = createRequestValidator(operation('patchThing', () => media).spec);
    expect(validate(patch({ 'x-trace': 'a' }), true)).toMatchObject({
      ok: false,
      violations: [{ location: 'header' }],
    });
    expect(validate(patch({ 'x-trace': 'ab' }), true)).toBe(VALID);
    expect(validate(patch({ 'x-trace': 'a' }), true)).toMatchObject({ ok: false });
  });
});

describe('judge', () => {
  const bodyFinding = (i: number) => ({
    path: ['body', `k${i}`],
    code: 'additionalProperties',
    message: 'no',
    severity: 0,
  });

  test('lists at most 100 violations however many the body breaks', () => {
    const check = judge(
      Array.from({ length: 6500 }, (_, i) => bodyFinding(i)),
      {},
    );
    expect(check.ok === false && check.violations).toHaveLength(100);
    expect(check).toMatchObject({ violationCount: 6500 });
  });

  test('says how many violations there were only when it lists fewer', () => {
    expect(judge([bodyFinding(1)], {})).not.toHaveProperty('violationCount');
  });

  test('still judges by every finding: a bad parameter past the first 100 makes it a 400, not a 422', () => {
    const query = { path: ['query', 'limit'], code: 'type', message: 'must be integer', severity: 0 };
    const check = judge([...Array.from({ length: 150 }, (_, i) => bodyFinding(i)), query], {});
    expect(check).toMatchObject({ ok: false, kind: 'invalidRequest' });
  });
});
