import { describe, expect, test, vi } from 'vitest';
import type { Operation } from '../../mock/contract/contract.js';
import { compileKey, planCollection } from '../../mock/plan/collection-plan.js';
import { inferCollections, listArray, successSchema } from '../../mock/plan/infer-collections.js';
import type { JsonObject } from '../../mock/schema/schema-facts.js';

/** A response documented with one JSON body (or none). */
const answers = (code: string, schema?: JsonObject, mediaType = 'application/json') => ({
  id: code,
  code,
  headers: [],
  contents: schema ? [{ id: `${code}-body`, mediaType, schema }] : [],
});

interface OperationShape {
  responses?: ReturnType<typeof answers>[];
  query?: { name: string; schema?: JsonObject }[];
  body?: { mediaType: string; schema?: JsonObject }[];
}

/** An operation as the loaded contract has it: only what collections read. */
const op = (method: string, path: string, { responses = [], query, body }: OperationShape = {}): Operation =>
  ({
    id: `${method} ${path}`,
    method,
    path,
    spec: {
      method,
      path,
      responses,
      request: {
        ...(query ? { query: query.map((q) => ({ ...q, style: 'form' })) } : {}),
        ...(body ? { body: { contents: body } } : {}),
      },
    },
  }) as unknown as Operation;

const PASS: JsonObject = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, member_id: { type: 'string' } },
};
const LIST: JsonObject = { type: 'array', items: PASS };

/** The four operations of a collection at `path`, its records of `record`, listed as `list`. */
const collection = (path: string, record: JsonObject = PASS, list: JsonObject = { type: 'array', items: record }) => [
  op('post', path, { responses: [answers('201', record), answers('400', { type: 'object' })] }),
  op('get', path, { responses: [answers('200', list)] }),
  op('get', `${path}/{pass_id}`, { responses: [answers('200', record), answers('404')] }),
  op('delete', `${path}/{pass_id}`, { responses: [answers('204')] }),
];

describe('inferCollections', () => {
  test('finds a collection from a POST that answers a record and a GET that lists them, with its item path', () => {
    const operations = collection('/members/{member_id}/passes');
    const [found, ...others] = inferCollections(operations).collections;
    expect(others).toEqual([]);
    expect(found).toMatchObject({
      path: '/members/{member_id}/passes',
      itemPath: '/members/{member_id}/passes/{pass_id}',
      idParam: 'pass_id',
      idField: 'id',
      schema: PASS,
    });
    expect([found!.create, found!.list, found!.read, found!.remove]).toEqual(operations);
  });

  test('gives every operation of the collection its role, and none to other operations', () => {
    const operations = [...collection('/passes'), op('get', '/health', { responses: [answers('200', PASS)] })];
    const { roles } = inferCollections(operations);
    expect(operations.map((o) => roles.get(o)?.role)).toEqual(['create', 'list', 'read', 'remove', undefined]);
  });

  test('a collection without an item path has no read, remove or id parameter', () => {
    const [found] = inferCollections(collection('/passes').slice(0, 2)).collections;
    expect(found).toMatchObject({ itemPath: undefined, idParam: undefined, read: undefined, remove: undefined });
  });

  test('an item path is exactly one parameter below the collection', () => {
    const operations = [
      ...collection('/passes').slice(0, 2),
      op('get', '/passes/{id}/history', { responses: [answers('200', PASS)] }),
      op('get', '/passesx/{id}', { responses: [answers('200', PASS)] }),
      op('get', '/passes/current', { responses: [answers('200', PASS)] }),
    ];
    expect(inferCollections(operations).collections[0]!.itemPath).toBeUndefined();
  });

  test.each([
    ['the create answers no JSON object', [answers('201', { type: 'string' })], [answers('200', LIST)]],
    ['the create answers text', [answers('201', PASS, 'text/plain')], [answers('200', LIST)]],
    ['the create answers only an error', [answers('400', PASS)], [answers('200', LIST)]],
    ['the list answers no array', [answers('201', PASS)], [answers('200', PASS)]],
    ['the list documents only a default', [answers('201', PASS)], [answers('default', LIST)]],
  ])('is no collection when %s', (_, created, listed) => {
    const operations = [op('post', '/passes', { responses: created }), op('get', '/passes', { responses: listed })];
    expect(inferCollections(operations).collections).toEqual([]);
  });

  test('a POST without a GET on its path is no collection', () => {
    expect(inferCollections([op('post', '/passes', { responses: [answers('201', PASS)] })]).collections).toEqual([]);
  });

  test('a record schema with properties but no type is a record, and vendor JSON media types are JSON', () => {
    const record = { properties: { id: { type: 'string' } } };
    const operations = [
      op('post', '/passes', { responses: [answers('201', record, 'application/vnd.pass+json')] }),
      op('get', '/passes', { responses: [answers('200', { type: 'array', items: record })] }),
    ];
    expect(inferCollections(operations).collections).toHaveLength(1);
  });

  test('a POST on a path that ends in a parameter is an update of the item, not a create into a collection', () => {
    const role = {
      type: 'object',
      properties: { id: { type: 'string' }, permissions: { type: 'array', items: { type: 'string' } } },
    };
    const operations = [
      op('post', '/roles/{role_id}', { responses: [answers('200', role)] }),
      op('get', '/roles/{role_id}', { responses: [answers('200', role)] }),
    ];
    expect(inferCollections(operations).collections).toEqual([]);
  });

  test('a record schema built with allOf is read merged: its collection and id field are found', () => {
    const base = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    const record = { allOf: [base, { type: 'object', properties: { widget_id: { type: 'string' } } }] };
    const [found] = inferCollections(collection('/widgets', record)).collections;
    expect(found).toMatchObject({ idField: 'widget_id', read: expect.anything() });
    expect(Object.keys(found!.schema.properties as JsonObject)).toEqual(['name', 'widget_id']);
  });

  test('records are made with their id field even where the schema declares it optional', () => {
    const record = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } };
    expect(inferCollections(collection('/passes', record)).collections[0]!.schema).toEqual({
      ...record,
      required: ['id'],
    });
  });

  test('an item GET that answers another schema than the record is not read from state', () => {
    const operations = collection('/passes');
    operations[2] = op('get', '/passes/{pass_id}', {
      responses: [
        answers('200', {
          type: 'object',
          required: ['id', 'score'],
          properties: { id: { type: 'string' }, score: { type: 'integer' } },
        }),
      ],
    });
    expect(inferCollections(operations).collections[0]).toMatchObject({ read: undefined, remove: operations[3] });
  });

  test.each([
    ['id, when the record has it', { id: {}, pass_id: {}, code: {} }, 'id'],
    ['the property named like the item parameter', { pass_id: {}, member_id: {}, name: {} }, 'pass_id'],
    ['the first id-like property that is not a path scope', { member_id: {}, passId: {}, name: {} }, 'passId'],
    ['a uuid', { name: {}, uuid: {} }, 'uuid'],
    ['a key', { name: {}, key: {} }, 'key'],
    ['id when nothing else looks like one', { member_id: {}, name: {} }, 'id'],
  ])('takes as the id field %s', (_, properties, idField) => {
    const record = { type: 'object', properties };
    const operations = collection('/members/{member_id}/passes', record);
    expect(inferCollections(operations).collections[0]!.idField).toBe(idField);
  });
});

describe('listArray', () => {
  const list = (schema: JsonObject) => op('get', '/passes', { responses: [answers('200', schema)] });

  test('is the body itself when the list answers an array', () => {
    expect(listArray(list(LIST), PASS)).toEqual([]);
  });

  test('is the one array property of an envelope', () => {
    const envelope = { type: 'object', properties: { data: LIST, next_cursor: { type: 'string' } } };
    expect(listArray(list(envelope), PASS)).toEqual(['data']);
  });

  test('is the array whose items have the record’s properties when an envelope has several', () => {
    const envelope = {
      type: 'object',
      properties: { links: { type: 'array', items: { type: 'object' } }, items: LIST },
    };
    expect(listArray(list(envelope), PASS)).toEqual(['items']);
  });

  test('is none when several arrays hold other records', () => {
    const other = { type: 'array', items: { type: 'object', properties: { href: {} } } };
    expect(listArray(list({ type: 'object', properties: { a: other, b: other } }), PASS)).toBeUndefined();
  });

  test('is none when the listed items require a field the record does not', () => {
    const summary = {
      type: 'object',
      required: ['id', 'score'],
      properties: { id: { type: 'string' }, score: { type: 'integer' } },
    };
    expect(listArray(list({ type: 'array', items: summary }), PASS)).toBeUndefined();
  });

  test('is none when the only array of an envelope holds something else than records (strings)', () => {
    const envelope = { type: 'object', properties: { permissions: { type: 'array', items: { type: 'string' } } } };
    expect(listArray(list(envelope), PASS)).toBeUndefined();
  });

  test('holds the records when the listed items are a summary: some of the record’s fields, declared alike', () => {
    const summary = {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string', description: 'The id.' } },
    };
    expect(listArray(list({ type: 'array', items: summary }), PASS)).toEqual([]);
  });

  test('is none when the listed items declare a field of the record otherwise', () => {
    const other = { type: 'object', properties: { id: { type: 'integer' } } };
    expect(listArray(list({ type: 'array', items: other }), PASS)).toBeUndefined();
  });

  test('is none for an array of arrays or an array without item schema', () => {
    expect(listArray(list({ type: 'array' }), PASS)).toBeUndefined();
    expect(listArray(list({ type: 'object', properties: { data: { type: 'array' } } }), PASS)).toBeUndefined();
  });
});

describe('successSchema', () => {
  test('is the JSON schema of the lowest 2xx', () => {
    const operation = op('get', '/x', { responses: [answers('202', { type: 'string' }), answers('200', PASS)] });
    expect(successSchema(operation)).toBe(PASS);
  });

  test('is none when the success response has no JSON body', () => {
    expect(successSchema(op('get', '/x', { responses: [answers('200', PASS, 'text/csv')] }))).toBeUndefined();
    expect(successSchema(op('get', '/x', { responses: [answers('204')] }))).toBeUndefined();
  });
});

describe('planCollection', () => {
  const plans = (operations: Operation[]) => {
    const map = inferCollections(operations);
    return operations.map((operation) => planCollection(operation, map));
  };

  test('gives each operation its role and the collection, and no plan to an operation outside one', () => {
    const operations = [...collection('/passes'), op('get', '/health', { responses: [answers('200', PASS)] })];
    const [create, list, read, remove, health] = plans(operations);
    expect([create?.role, list?.role, read?.role, remove?.role, health]).toEqual([
      'create',
      'list',
      'read',
      'remove',
      undefined,
    ]);
    expect(create!.collection).toBe(list!.collection);
    expect([create!.list, list!.create, read!.list, read!.create, remove!.list]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test.each([
    ['a 404', ['200', '404'], true],
    ['a 4XX', ['200', '4XX'], true],
    ['a default', ['200', 'default'], true],
    ['no 404, 4XX or default', ['200', '400'], false],
  ])('a read or a delete answers a missing record as not found when it documents %s', (_, codes, notFound) => {
    const operations = collection('/passes');
    operations[2] = op('get', '/passes/{pass_id}', {
      responses: codes.map((code) => answers(code, code === '200' ? PASS : undefined)),
    });
    operations[3] = op('delete', '/passes/{pass_id}', { responses: codes.map((code) => answers(code)) });
    const [, , read, remove] = plans(operations);
    expect([read!.missingIsNotFound, remove!.missingIsNotFound]).toEqual([notFound, notFound]);
  });

  describe('a list', () => {
    const listed = (query: OperationShape['query'], list: JsonObject = LIST) => {
      const operations = collection('/passes', PASS, list);
      operations[1] = op('get', '/passes', { responses: [answers('200', list)], query });
      return plans(operations)[1]!.list!;
    };

    test('without paging parameters is one page and has no cursor', () => {
      expect(listed(undefined)).toMatchObject({
        where: [],
        limitParam: undefined,
        defaultLimit: Infinity,
        cursorParam: undefined,
        nextField: undefined,
        nextNullable: false,
      });
    });

    test.each(['limit', 'page_size', 'pageSize', 'per_page', 'perPage'])('reads the page size from %s', (name) => {
      expect(listed([{ name: 'q' }, { name }]).limitParam).toBe(name);
    });

    test('with a limit that only caps it answers every record; with a way to page, pages by 20', () => {
      expect(listed([{ name: 'limit' }]).defaultLimit).toBe(Infinity);
      expect(listed([{ name: 'limit' }, { name: 'cursor' }]).defaultLimit).toBe(20);
      expect(listed([{ name: 'page' }]).defaultLimit).toBe(20);
      expect(listed([{ name: 'offset' }, { name: 'limit' }]).defaultLimit).toBe(20);
    });

    test('reads the offset from offset, and from skip or start only beside a page size (else they are filters)', () => {
      const integer = { type: 'integer' };
      expect(listed([{ name: 'q' }, { name: 'offset', schema: integer }]).offsetParam).toBe('offset');
      for (const name of ['skip', 'start']) {
        expect(listed([{ name, schema: integer }, { name: 'limit' }]).offsetParam).toBe(name);
        expect(listed([{ name, schema: integer }])).toMatchObject({ offsetParam: undefined, defaultLimit: Infinity });
      }
    });

    test('reads the page size from size only beside a page or an offset (else a filter: a shoe size)', () => {
      const integer = { type: 'integer' };
      expect(
        listed([
          { name: 'size', schema: integer },
          { name: 'page', schema: integer },
        ]).limitParam,
      ).toBe('size');
      expect(listed([{ name: 'size', schema: integer }])).toMatchObject({
        limitParam: undefined,
        defaultLimit: Infinity,
      });
    });

    test('pages no further than the contract lets a page go: the limit’s maximum, the array’s maxItems', () => {
      expect(listed([{ name: 'limit', schema: { type: 'integer', maximum: 100 } }]).defaultLimit).toBe(100);
      expect(
        listed([{ name: 'limit', schema: { type: 'integer', maximum: 10 } }, { name: 'cursor' }]).defaultLimit,
      ).toBe(10);
      expect(listed([], { type: 'array', maxItems: 50, items: PASS }).defaultLimit).toBe(50);
    });

    test.each(['page', 'page_number', 'pageNumber', 'pageIndex'])('reads the page number from %s', (name) => {
      expect(listed([{ name: 'q' }, { name, schema: { type: 'integer' } }]).pageParam).toBe(name);
    });

    test.each([
      ['no default nor minimum', { type: 'integer' }, 1],
      ['a minimum of 0', { type: 'integer', minimum: 0 }, 0],
      ['a default of 0', { type: 'integer', default: 0, minimum: 0 }, 0],
      ['a minimum of 1', { type: 'integer', minimum: 1 }, 1],
    ])('counts pages from the first the page parameter allows: %s', (_, schema, first) => {
      expect(listed([{ name: 'page', schema }]).firstPage).toBe(first);
    });

    test('takes no text parameter named like a page or its size for paging (a filter, a token)', () => {
      const list = listed([
        { name: 'size', schema: { type: 'string', enum: ['S', 'XL'] } },
        { name: 'page', schema: { type: 'string' } },
        { name: 'start', schema: { type: 'string', format: 'date' } },
      ]);
      expect(list).toMatchObject({ limitParam: undefined, pageParam: undefined, offsetParam: undefined });
    });

    test('counts the records and the pages in the envelope fields that name them, and echoes the page', () => {
      const integer = { type: 'integer' };
      const envelope = {
        type: 'object',
        properties: {
          data: LIST,
          total: integer,
          totalPages: integer,
          page: integer,
          per_page: integer,
          label: { type: 'string' },
          count: { type: 'string' },
        },
      };
      const list = listed(
        [
          { name: 'page', schema: integer },
          { name: 'per_page', schema: integer },
        ],
        envelope,
      );
      expect(list.countFields.map(({ name, counts }) => [name, counts])).toEqual([
        ['total', 'records'],
        ['totalPages', 'pages'],
        ['page', 'page'],
        ['per_page', 'limit'],
      ]);
    });

    test.each(['cursor', 'page_token', 'pageToken', 'after', 'starting_after'])('reads the cursor from %s', (name) => {
      expect(listed([{ name: 'q' }, { name }]).cursorParam).toBe(name);
    });

    test.each([
      ['a 400', ['200', '400'], true],
      ['a 4XX', ['200', '4XX'], true],
      ['a default', ['200', 'default'], true],
      ['no 400, 4XX or default', ['200', '404'], false],
    ])('refuses a cursor it cannot read when the list documents %s', (_, codes, refuses) => {
      const operations = collection('/passes');
      operations[1] = op('get', '/passes', {
        responses: codes.map((code) => answers(code, code === '200' ? LIST : undefined)),
        query: [{ name: 'after' }],
      });
      expect(plans(operations)[1]!.list!).toMatchObject({ cursorParam: 'after', refusesBadCursor: refuses });
    });

    test('pages by the size parameter’s default', () => {
      expect(listed([{ name: 'limit', schema: { type: 'integer', default: 7 } }]).defaultLimit).toBe(7);
      const textDefault = { name: 'limit', schema: { type: 'integer', default: '7' } };
      expect(listed([textDefault, { name: 'cursor' }]).defaultLimit).toBe(20);
    });

    test.each([
      ['next_cursor', { type: 'string' }, false],
      ['nextCursor', { type: 'string', nullable: true }, true],
      ['next_page_token', { type: ['string', 'null'] }, true],
      ['nextPageToken', { type: 'string' }, false],
    ])('finds the next cursor in the envelope field %s (nullable: %s)', (field, schema, nullable) => {
      const envelope = { type: 'object', properties: { data: LIST, [field]: schema } };
      expect(listed(undefined, envelope)).toMatchObject({ where: ['data'], nextField: field, nextNullable: nullable });
    });

    test('makes the envelope once and keeps it', () => {
      const list = listed(undefined);
      const make = vi.fn(() => ({ total: 1 }));
      const first = list.envelope(make);
      expect(list.envelope(make)).toBe(first);
      expect(make).toHaveBeenCalledTimes(1);
    });
  });

  describe('a create', () => {
    const created = (body?: OperationShape['body'], record: JsonObject = PASS) => {
      const operations = collection('/passes', record);
      operations[0] = op('post', '/passes', { responses: [answers('201', record)], body });
      return plans(operations)[0]!.create!;
    };

    test('keeps the JSON request schema for defaults, and none of other media types', () => {
      const schema = { type: 'object', properties: { name: { type: 'string', default: 'Gym' } } };
      expect(created([{ mediaType: 'application/json', schema }]).requestSchema).toBe(schema);
      expect(created([{ mediaType: 'text/plain', schema }]).requestSchema).toBeUndefined();
      expect(created([{ mediaType: 'application/json', schema: true as unknown as JsonObject }]).requestSchema).toBe(
        undefined,
      );
      expect(created(undefined).requestSchema).toBeUndefined();
    });

    test('the open part is the record schema without the decided properties, required included', () => {
      expect(created(undefined).openPart(['id', 'member_id'])).toEqual({
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' } },
      });
    });

    test('the open part of a record without required fields gets none', () => {
      const record = { type: 'object', properties: { id: { type: 'string' }, note: { type: 'string' } } };
      expect(created(undefined, record).openPart(['id'])).toEqual({
        type: 'object',
        properties: { note: { type: 'string' } },
      });
    });

    test('keeps a sent value of a field the request and the response declare alike, whatever it is', () => {
      const schema = { type: 'object', properties: { name: { type: 'string', description: 'Sent.' } } };
      expect(created([{ mediaType: 'application/json', schema }]).keeps!('name', 'Gym')).toBe(true);
    });

    test.each([
      ['fits', { label: 'blue' }, true],
      ['does not fit', 'blue', false],
    ])('keeps a sent value of a field declared otherwise in the response only when it %s', (_, value, kept) => {
      const record = {
        type: 'object',
        properties: { id: { type: 'string' }, tag: { type: 'object', properties: { label: { type: 'string' } } } },
      };
      const schema = { type: 'object', properties: { tag: { type: 'string' } } };
      expect(created([{ mediaType: 'application/json', schema }], record).keeps!('tag', value)).toBe(kept);
    });

    test('the open part is made once per set of decided names', () => {
      const create = created(undefined);
      const part = create.openPart(['id']);
      expect(create.openPart(['id'])).toBe(part);
      expect(create.openPart(['id', 'name'])).not.toBe(part);
      expect(create.openPart(['idname'])).not.toBe(create.openPart(['id', 'name']));
      expect(create.openPart(['name', 'id'])).not.toBe(create.openPart(['id', 'name']));
    });

    test('with nothing decided the open part is the whole record, made once, apart from any named set', () => {
      const create = created(undefined);
      const whole = create.openPart([]);
      expect(Object.keys(whole.properties as object)).toEqual(['id', 'name', 'member_id']);
      expect(whole.required).toEqual(['id', 'name']);
      expect(create.openPart([])).toBe(whole);
      expect(create.openPart(['undefined'])).not.toBe(whole);
      expect(create.openPart([''])).not.toBe(whole);
    });
  });
});

describe('compileKey', () => {
  test('fills the template with each path parameter percent-encoded', () => {
    const key = compileKey('/members/{member_id}/passes/{pass_id}');
    expect(key({ member_id: 'm 1/2', pass_id: 'p' })).toBe('/members/m%201%2F2/passes/p');
  });

  test('fills a missing parameter with nothing', () => {
    expect(compileKey('/members/{member_id}/passes')({})).toBe('/members//passes');
  });

  test('remembers the key of one parameters object, and works out another object afresh', () => {
    const key = compileKey('/members/{member_id}');
    const params = { member_id: 'a' };
    expect(key(params)).toBe('/members/a');
    params.member_id = 'b';
    expect(key(params)).toBe('/members/a');
    expect(key({ member_id: 'b' })).toBe('/members/b');
  });
});
