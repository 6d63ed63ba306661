import type { IHttpOperationResponse } from '@stoplight/types';
import accepts from 'accepts';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Contract, Operation } from '../../mock/contract/contract.js';
import { chooseResponse, negotiateMediaType, type Choosing } from '../../mock/plan/choose-response.js';
import { inferCollections } from '../../mock/plan/infer-collections.js';
import { compileOperation } from '../../mock/plan/operation-plan.js';
import { serve } from '../../mock/plan/serve.js';
import { compileResponses } from '../../mock/schema/response-table.js';

type Content = { mediaType: string; examples?: { key: string; value: unknown }[] };
const response = (code: string, contents: Content[] = [], headers: string[] = []): IHttpOperationResponse =>
  ({
    id: code,
    code,
    headers: headers.map((name) => ({ id: name, name, style: 'simple' })),
    contents: contents.map((c, i) => ({ id: `${code}-${i}`, schema: { type: 'object' }, ...c })),
  }) as IHttpOperationResponse;

const JSON_BODY = { mediaType: 'application/json', examples: [{ key: 'gold', value: {} }] };

/** An operation as the loaded contract has it: id, method, path and what Prism made of it. */
const operation = (
  id: string,
  responses: IHttpOperationResponse[],
  { path = '/passes/{pass_id}', method = 'get', body }: { path?: string; method?: string; body?: Content[] } = {},
): Operation =>
  ({
    id,
    method,
    path,
    spec: { id, method, path, responses, request: body ? { body: { contents: body } } : {} },
  }) as unknown as Operation;

/** What choosing reads, with negotiation by exact type or `*\/*` only. */
const choosing = (responses: IHttpOperationResponse[]): Choosing => ({
  operationId: 'getPass',
  responses: compileResponses(responses),
  negotiate: (accept, types) =>
    accept === undefined || accept === '*/*' ? types[0]! : (types.find((t) => t === accept) ?? false),
});

describe('chooseResponse', () => {
  const passes = choosing([
    response('200', [JSON_BODY, { mediaType: 'text/csv' }]),
    response('204'),
    response('4XX', [{ mediaType: 'application/problem+json' }]),
    response('default', [JSON_BODY]),
  ]);

  test('without a wish answers the success response in the first type Accept allows', () => {
    expect(chooseResponse(passes, {}, 'text/csv')).toMatchObject({
      ok: true,
      choice: { status: 200, content: { mediaType: 'text/csv' } },
    });
    expect(chooseResponse(passes, {}, undefined)).toMatchObject({
      choice: { content: { mediaType: 'application/json' } },
    });
  });

  test.each([['application/json'], ['text/plain, application/json'], ['application/json, */*;q=0']])(
    'refuses a success with a body of no media type when Accept is %s',
    (accept) => {
      const untyped = choosing([response('200', [{ mediaType: '' }])]);
      expect(chooseResponse(untyped, {}, accept)).toMatchObject({ ok: false, reason: 'not-acceptable' });
    },
  );

  test.each([[undefined], ['*/*'], ['application/json, */*;q=0.1']])(
    'answers a success with a body of no media type, without a body, when Accept is %s',
    (accept) => {
      const untyped = choosing([response('200', [{ mediaType: '' }])]);
      expect(chooseResponse(untyped, {}, accept)).toMatchObject({ ok: true, choice: { status: 200 } });
      expect(chooseResponse(untyped, {}, accept)).not.toHaveProperty('choice.content');
    },
  );

  test('answers a documented class with the status asked for', () => {
    expect(chooseResponse(passes, { code: 409 }, undefined)).toMatchObject({
      ok: true,
      choice: { status: 409, response: { code: '4XX' } },
    });
  });

  test('answers any other status with the default response', () => {
    expect(chooseResponse(passes, { code: 503 }, undefined)).toMatchObject({ choice: { status: 503 } });
  });

  test('refuses a status the operation does not document, listing those it does', () => {
    const strict = choosing([response('200', [JSON_BODY]), response('404')]);
    expect(chooseResponse(strict, { code: 500 }, undefined)).toEqual({
      ok: false,
      reason: 'prefer',
      message: 'Prefer code=500 is not documented for getPass; documented: 200, 404.',
    });
  });

  test('sends no body with a 204, whatever its response documents', () => {
    const odd = choosing([response('204', [JSON_BODY])]);
    expect(chooseResponse(odd, {}, undefined)).toEqual({
      ok: true,
      choice: { status: 204, response: odd.responses.success },
    });
  });

  test('refuses an example of a response without a body', () => {
    expect(chooseResponse(passes, { code: 204, example: 'gold' }, undefined)).toEqual({
      ok: false,
      reason: 'prefer',
      message: 'Prefer example=gold: the 204 response of getPass has no body.',
    });
  });

  test('refuses a success when Accept allows none of its types', () => {
    expect(chooseResponse(passes, {}, 'application/xml')).toEqual({
      ok: false,
      reason: 'not-acceptable',
      message: 'The Accept header allows none of: application/json, text/csv.',
    });
  });

  test('sends an error in its first type even when Accept allows none', () => {
    expect(chooseResponse(passes, { code: 404 }, 'text/html')).toMatchObject({
      ok: true,
      choice: { status: 404, content: { mediaType: 'application/problem+json' } },
    });
  });

  test('answers a named example of the chosen response', () => {
    expect(chooseResponse(passes, { example: 'gold' }, undefined)).toMatchObject({
      ok: true,
      choice: { status: 200, exampleKey: 'gold' },
    });
  });

  test('refuses an unknown example, listing the examples of the response', () => {
    expect(chooseResponse(passes, { example: 'silver' }, undefined)).toEqual({
      ok: false,
      reason: 'prefer',
      message: 'Prefer example=silver is not an example of the 200 response of getPass; examples: gold.',
    });
    expect(chooseResponse(passes, { code: 400, example: 'gold' }, undefined)).toMatchObject({
      message: expect.stringMatching(/response of getPass; examples: none\.$/),
    });
  });
});

describe('compileOperation', () => {
  const getPass = operation('getPass', [response('200', [JSON_BODY, { mediaType: 'text/csv' }]), response('404')]);
  const compile = (op: Operation) => compileOperation(op, inferCollections([op]));

  test('matches a path once: the same frozen hit, with its path parameters, every time', () => {
    const plan = compile(getPass);
    const hit = plan.match('/passes/p%201');
    expect(hit).toEqual({ plan, pathParams: { pass_id: 'p 1' }, path: '/passes/p%201' });
    expect(Object.isFrozen(hit) && Object.isFrozen(hit.pathParams)).toBe(true);
    expect(plan.match('/passes/p%201')).toBe(hit);
    expect(plan.match('/passes/p2').pathParams).toEqual({ pass_id: 'p2' });
  });

  test('knows whether a request body is documented, and its media types in lower case', () => {
    const put = compile(
      operation('putPass', [response('204')], { method: 'put', body: [{ mediaType: 'Application/JSON' }] }),
    );
    expect([put.takesBody, put.bodyTypes]).toEqual([true, ['application/json']]);
    expect([compile(getPass).takesBody, compile(getPass).bodyTypes]).toEqual([false, []]);
  });

  test('an operation without a request, or with a body that lists no media types, reads no body types', () => {
    const bare = { ...getPass, spec: { ...getPass.spec, request: undefined } } as Operation;
    expect([compile(bare).takesBody, compile(bare).bodyTypes]).toEqual([false, []]);
    const untyped = { ...getPass, spec: { ...getPass.spec, request: { body: { id: 'b' } } } } as Operation;
    expect([compile(untyped).takesBody, compile(untyped).bodyTypes]).toEqual([true, []]);
  });

  test('remembers negotiations by the whole list of types', () => {
    const plan = compile(getPass);
    expect(plan.negotiate('*/*', ['text/csv', 'application/json'])).toBe('text/csv');
    expect(plan.negotiate('*/*', ['text/csvapplication/json'])).toBe('text/csvapplication/json');
  });

  test('negotiates as Express would: q-values, wildcards, no Accept, and nothing acceptable', () => {
    const plan = compile(getPass);
    const types = ['application/json', 'text/csv'];
    expect(plan.negotiate('text/csv;q=0.9, application/json;q=0.5', types)).toBe('text/csv');
    expect(plan.negotiate('text/*', types)).toBe('text/csv');
    expect(plan.negotiate(undefined, types)).toBe('application/json');
    expect(plan.negotiate('image/png', types)).toBe(false);
    expect(plan.negotiate('image/png', types)).toBe(false);
    expect(plan.negotiate('text/csv', ['application/json'])).toBe(false);
  });

  test('chooses with its own responses and id, and hands out the same frozen choice again', () => {
    const plan = compile(getPass);
    const choice = plan.choose({ code: 404 }, undefined);
    expect(choice).toEqual({ ok: true, choice: { status: 404, response: plan.responses.lookup(404) } });
    expect(Object.isFrozen(choice)).toBe(true);
    expect(plan.choose({ code: 404 }, undefined)).toBe(choice);
    expect(plan.choose({}, 'text/csv')).toMatchObject({ choice: { content: { mediaType: 'text/csv' } } });
    expect(plan.choose({ code: 500 }, undefined)).toMatchObject({ message: expect.stringContaining('for getPass;') });
  });

  test('tells choices apart by code, example and Accept', () => {
    const plan = compile(getPass);
    expect(plan.choose({}, 'text/csv')).not.toBe(plan.choose({}, 'application/json'));
    expect(plan.choose({ example: 'gold' }, undefined)).not.toBe(plan.choose({}, undefined));
    expect(plan.choose({ code: 200 }, undefined)).not.toBe(plan.choose({}, undefined));
  });
});

describe('serve', () => {
  const contract = (operations: Operation[]) =>
    ({ source: 'x', title: 'x', version: '1', operations, prepared: new WeakMap() }) as unknown as Contract;

  test('compiles a plan per operation in contract order, and routes to them', () => {
    const ops = [
      operation('listPasses', [response('200')], { path: '/passes' }),
      operation('getPass', [response('200')]),
      operation('deletePass', [response('204')], { method: 'delete' }),
    ];
    const served = serve(contract(ops));
    expect(served.plans.map((p) => p.operation)).toEqual(ops);
    expect(served.routes.find('delete', '/passes/p1')).toEqual({
      kind: 'matched',
      route: { method: 'delete', path: '/passes/{pass_id}', value: served.plans[2] },
    });
    expect(served.routes.find('post', '/passes/p1')).toEqual({ kind: 'no-method', allow: ['GET', 'DELETE'] });
  });

  test('exposes the documented response headers Node can send, once each, after X-Request-Id', () => {
    const ops = [
      operation('a', [response('200', [], ['ETag', 'X-Rate-Limit']), response('429', [], ['Retry-After', 'ETag'])]),
      operation('b', [response('200', [], ['Bad Name', 'X-Ω'])], { path: '/other' }),
    ];
    expect(serve(contract(ops)).exposedHeaders).toBe('X-Request-Id, ETag, X-Rate-Limit, Retry-After');
  });
});

describe('negotiateMediaType', () => {
  test('reads a vendor type whose Accept range has parameters the contract does not list', () => {
    const types = ['application/vnd.archa.api+json'];
    expect(negotiateMediaType('application/vnd.archa.api+json; version=1', types)).toBe(types[0]);
  });

  test('keeps the q-value of a range whose other parameters it drops', () => {
    const types = ['application/vnd.a+json', 'text/csv'];
    expect(negotiateMediaType('application/vnd.a+json; v=2; q=0.1, text/csv; q=0.5', types)).toBe('text/csv');
  });

  test('prefers the type whose parameters match exactly', () => {
    const types = ['application/vnd.a+json; version=1', 'application/vnd.a+json; version=2'];
    expect(negotiateMediaType('application/vnd.a+json; version=2', types)).toBe(types[1]);
  });

  test('still refuses a type the contract does not have, parameters or not', () => {
    expect(negotiateMediaType('application/xml; charset=utf-8', ['application/json'])).toBe(false);
  });

  test("chooses as Express's req.accepts (the accepts package) does, with negotiator alone (no mime-db)", () => {
    const type = fc.constantFrom('application/json', 'text/csv', 'application/*', '*/*', 'text/plain', 'image/png');
    const range = fc
      .tuple(type, fc.option(fc.constantFrom('q=0', 'q=0.5', 'q=1', 'level=1'), { nil: undefined }))
      .map(([t, p]) => (p ? `${t}; ${p}` : t));
    const accept = fc.option(
      fc.array(range, { maxLength: 4 }).map((ranges) => ranges.join(', ')),
      { nil: undefined },
    );
    const types = fc.uniqueArray(fc.constantFrom('application/json', 'text/csv', 'text/plain', 'application/xml'));
    fc.assert(
      fc.property(accept, types, (header, offered) => {
        const chosen = accepts({ headers: { accept: header } } as Parameters<typeof accepts>[0]).types([...offered]);
        // accepts lists every range for no types; the mock takes that as none.
        const expected = typeof chosen === 'string' ? chosen : false;
        // Past a bare-range retry (a range with parameters), negotiateMediaType is accepts' choice.
        if (expected !== false || !header?.includes(';')) expect(negotiateMediaType(header, offered)).toBe(expected);
      }),
    );
  });
});
