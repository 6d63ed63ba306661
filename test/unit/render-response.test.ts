import type { IHttpHeaderParam, IHttpOperationResponse, IMediaTypeContent } from '@stoplight/types';
import { describe, expect, test, vi } from 'vitest';
import type { BodyGenerator } from '../../mock/generate/generate-body.js';
import type { Operation } from '../../mock/contract/contract.js';
import type { ResponseChoice } from '../../mock/plan/choose-response.js';
import { planBodyEcho } from '../../mock/plan/path-echo.js';
import { generationKey, renderResponse } from '../../mock/respond/render-response.js';

/** A generator that answers `draw(schema, key)` and remembers what it was asked. */
const generator = (draw: (schema: unknown, key: string) => unknown = () => ({ id: 'gen' })) => {
  const generate = vi.fn(draw);
  return { generate, anchor: new Date(0) } satisfies BodyGenerator;
};

const content = (examples: { key: string; value?: unknown }[] = [], schema: unknown = { type: 'object' }) =>
  ({ id: 'c', mediaType: 'application/json', examples, ...(schema ? { schema } : {}) }) as IMediaTypeContent;

const choice = (status: number, body?: IMediaTypeContent, headers: IHttpHeaderParam[] = [], exampleKey?: string) =>
  ({
    status,
    response: { id: 'r', code: String(status), headers, contents: body ? [body] : [] } as IHttpOperationResponse,
    ...(body ? { content: body } : {}),
    ...(exampleKey ? { exampleKey } : {}),
  }) as ResponseChoice;

const REQUEST = { path: '/members/m1/passes', pathParams: { member_id: 'm1' } };
const render = (
  g: BodyGenerator,
  chosen: ResponseChoice,
  { dynamic = true, stored }: { dynamic?: boolean; stored?: unknown } = {},
) => renderResponse(g, { operationId: 'listPasses', choice: chosen, dynamic, key: 'key' }, REQUEST, stored);

describe('renderResponse', () => {
  test('generates a success body with the request’s key, in the chosen media type', () => {
    const g = generator();
    expect(render(g, choice(200, content([{ key: 'gold', value: { id: 'ex' } }])))).toEqual({
      status: 200,
      headers: {},
      contentType: 'application/json',
      body: { id: 'gen' },
    });
    expect(g.generate).toHaveBeenCalledWith({ type: 'object' }, 'key', undefined);
  });

  test('without dynamic bodies serves the default example, else the first, the same for every request', () => {
    const examples = [
      { key: 'first', value: { id: 'first' } },
      { key: 'default', value: { id: 'default' } },
    ];
    expect(render(generator(), choice(200, content(examples)), { dynamic: false }).body).toEqual({ id: 'default' });
    expect(render(generator(), choice(200, content(examples.slice(0, 1))), { dynamic: false }).body).toEqual({
      id: 'first',
    });
  });

  test('without dynamic bodies or examples samples the schema as Prism’s static mode does, drawing nothing', () => {
    const g = generator();
    const schema = {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string' },
        count: { type: 'integer' },
        plan: { type: 'string', example: 'Gold' },
        tier: { type: 'string', default: 'basic' },
        cursor: { type: ['string', 'null'], default: null },
      },
    };
    const body = render(g, choice(201, content([], schema)), { dynamic: false }).body;
    expect(body).toEqual({ id: 'string', count: 0, plan: 'Gold', tier: 'basic', cursor: null });
    expect(g.generate).not.toHaveBeenCalled();
  });

  test('serves a named example whatever else is asked, as a copy', () => {
    const value = { id: 'gold' };
    const chosen = choice(
      200,
      content([
        { key: 'default', value: {} },
        { key: 'gold', value },
      ]),
      [],
      'gold',
    );
    const { body } = render(generator(), chosen);
    expect(body).toEqual({ id: 'gold' });
    expect(body).not.toBe(value);
  });

  test('an error serves the contract’s example even with dynamic bodies', () => {
    expect(render(generator(), choice(404, content([{ key: 'missing', value: { title: 'Not found' } }]))).body).toEqual(
      {
        title: 'Not found',
      },
    );
  });

  test('a generated problem says the status it is sent with', () => {
    const g = generator(() => ({ status: 418, title: 't' }));
    expect(render(g, choice(503, content())).body).toEqual({ status: 503, title: 't' });
    expect(
      render(
        generator(() => ({ status: '418' })),
        choice(503, content()),
      ).body,
    ).toEqual({ status: '418' });
    expect(
      render(
        generator(() => ({ status: 418 })),
        choice(200, content()),
      ).body,
    ).toEqual({ status: 418 });
  });

  test('a content without schema serves its example, or no body', () => {
    expect(render(generator(), choice(200, content([{ key: 'a', value: 1 }], null))).body).toBe(1);
    expect(render(generator(), choice(200, content([], null)))).toEqual({
      status: 200,
      headers: {},
      contentType: 'application/json',
      body: undefined,
    });
  });

  test('a response without content has no body and no content type', () => {
    expect(render(generator(), choice(204))).toEqual({ status: 204, headers: {} });
  });

  test('the stored body wins over examples and generation', () => {
    const g = generator();
    const stored = { id: 'stored', member_id: 'other' };
    expect(render(g, choice(200, content([{ key: 'a', value: 1 }])), { stored }).body).toBe(stored);
    expect(g.generate).not.toHaveBeenCalled();
  });

  test('the path’s parameters go where the rendering’s echo says, and nowhere without one', () => {
    const record = { type: 'object', properties: { member_id: { type: 'string' } } };
    const schema = {
      type: 'object',
      properties: { member_id: { type: 'string' }, data: { type: 'array', items: record } },
    };
    const listPasses = { id: 'listPasses', method: 'get', path: '/members/{member_id}/passes', spec: {} } as Operation;
    const drawn = () => ({ member_id: 'x', data: [{ member_id: 'y' }, 'z'], nested: { member_id: 'kept' } });
    const chosen = choice(200, content([], schema));
    const rendering = { operationId: 'listPasses', choice: chosen, dynamic: true, key: 'key' };
    const echo = planBodyEcho(listPasses, schema);
    expect(renderResponse(generator(drawn), { ...rendering, echo }, REQUEST).body).toEqual({
      member_id: 'm1',
      data: [{ member_id: 'm1' }, 'z'],
      nested: { member_id: 'kept' },
    });
    expect(renderResponse(generator(drawn), rendering, REQUEST).body).toEqual(drawn());
  });
});

describe('renderResponse headers', () => {
  const header = (name: string, extra: Partial<IHttpHeaderParam> = {}) =>
    ({ id: name, name, style: 'simple', ...extra }) as IHttpHeaderParam;
  const headersOf = (headers: IHttpHeaderParam[], g = generator(() => ({ id: 'p 1' })), body = content()) =>
    render(g, choice(201, body, headers)).headers;

  test('a Location points at the created record by its id, percent-encoded', () => {
    expect(headersOf([header('Location')])).toEqual({ Location: '/members/m1/passes/p%201' });
    expect(
      headersOf(
        [header('location')],
        generator(() => ({ id: 1 })),
      ),
    ).toEqual({ location: '/members/m1/passes/1' });
    expect(
      headersOf(
        [header('location')],
        generator(() => ({ id: { nested: 1 } })),
      ),
    ).toEqual({});
  });

  test('a header takes its example, else its schema’s first example, else its default', () => {
    expect(
      headersOf([
        header('X-A', { examples: [{ id: 'a', key: 'a', value: 5 }], schema: { default: 'd' } }),
        header('X-B', { schema: { examples: ['b'], default: 'd' } }),
        header('X-C', { schema: { default: 0 } }),
      ]),
    ).toEqual({ 'X-A': '5', 'X-B': 'b', 'X-C': '0' });
  });

  test('a header without example is generated with its own key, required or not; a schemaless one is left out', () => {
    const values: Record<string, unknown> = { object: { a: 1, b: 'x' }, array: ['p', 'q'], integer: 42 };
    const g = generator((schema) => values[(schema as { type: string }).type]);
    expect(
      headersOf(
        [
          header('X-Count', { required: true, schema: { type: 'integer' } }),
          header('X-Object', { required: true, schema: { type: 'object' } }),
          header('X-List', { schema: { type: 'array' } }),
          header('X-Optional', { schema: { type: 'integer' } }),
          header('X-Schemaless', { required: true }),
        ],
        g,
      ),
    ).toEqual({ 'X-Count': '42', 'X-Object': 'a,1,b,x', 'X-List': 'p,q', 'X-Optional': '42' });
    expect(g.generate).toHaveBeenCalledWith({ type: 'integer' }, 'key|header:X-Count');
    expect(g.generate).toHaveBeenCalledWith({ type: 'integer' }, 'key|header:X-Optional');
  });

  test('a documented Content-Type is left to the chosen media type', () => {
    expect(headersOf([header('Content-Type', { schema: { default: 'text/plain' } })])).toEqual({});
  });

  test.each(['Content-Length', 'Transfer-Encoding', 'Content-Encoding'])(
    'a documented %s is left to the server (GitHub documents one)',
    (name) => {
      expect(headersOf([header(name, { required: true, schema: { type: 'string', default: '5' } })])).toEqual({});
    },
  );
});

describe('generationKey', () => {
  const chosen = choice(200, content());

  test('is the operation, status, media type and request, and with an occurrence a new one per call', () => {
    const request = { path: '/members/m1/passes', rawQuery: 'limit=2' };
    expect(generationKey('listPasses', chosen, request)).toBe(
      'listPasses|200|application/json|/members/m1/passes?limit=2',
    );
    expect(generationKey('listPasses', chosen, request, 3)).toBe(
      'listPasses|200|application/json|/members/m1/passes?limit=2|#3',
    );
    expect(generationKey('deletePass', choice(204), { path: '/p', rawQuery: '' }, 0)).toBe('deletePass|204||/p?|#0');
  });
});

describe('renderResponse without dynamic bodies, as Prism’s static mode', () => {
  const typed = (mediaType: string, schema: unknown, examples: { key: string; value: unknown }[] = []) =>
    ({ id: 'c', mediaType, examples, schema }) as IMediaTypeContent;
  const renderStatic = (body: IMediaTypeContent, bundle?: unknown, status = 200) =>
    renderResponse(
      generator(),
      { operationId: 'op', choice: choice(status, body), dynamic: false, key: 'key', bundle },
      REQUEST,
    );

  test('samples a recursive schema through the operation’s bundle', () => {
    const node = {
      type: 'object',
      properties: { text: { type: 'string' }, children: { type: 'array', items: { $ref: '#/__bundled__/node' } } },
    };
    const schema = { type: 'object', properties: { prop: { $ref: '#/__bundled__/node' } } };
    const body = renderStatic(typed('application/json', schema), { node }).body as { prop: { text: string } };
    expect(body.prop.text).toBe('string');
  });

  test('two properties of one schema are both sampled', () => {
    const shared = { type: 'object', properties: { output: { type: ['string', 'null'] } } };
    const schema = { type: 'object', properties: { first: shared, second: shared } };
    expect(renderStatic(typed('application/json', schema)).body).toEqual({
      first: { output: 'string' },
      second: { output: 'string' },
    });
  });

  test('a schema too complex to sample is a 500 problem, not a broken body', () => {
    const reply = renderStatic(typed('application/json', { type: 'array', items: { type: 'string' }, minItems: 3000 }));
    expect(reply.status).toBe(500);
    expect(reply.contentType).toBe('application/problem+json');
    expect(reply.body).toMatchObject({ status: 500, title: 'Schema too complex' });
  });

  test.each(['text/plain', 'text/html'])('an object under %s is a 500 problem, never "[object Object]"', (type) => {
    const schema = { type: 'object', properties: { name: { type: 'string', example: 'Clark' } } };
    const reply = renderStatic(typed(type, schema));
    expect(reply.status).toBe(500);
    expect(reply.body).toMatchObject({ status: 500, title: 'Cannot serialise complex objects as text' });
  });

  test('a string under text/plain is its body', () => {
    expect(renderStatic(typed('text/plain', { type: 'string', example: 'hello' })).body).toBe('hello');
  });

  test('an XML body is named after its schema’s xml.name', () => {
    const schema = { type: 'object', xml: { name: 'Pet' }, properties: { id: { type: 'integer' } } };
    expect(renderStatic(typed('application/xml', schema)).text).toBe('<Pet><id>0</id></Pet>');
  });
});
