import { once } from 'node:events';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ContractError, loadContract, type Contract } from '../../mock/index.js';

/** Writes files (path → text) into a new folder; returns the path of the first one. */
async function files(texts: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'contract-refs-'));
  for (const [name, text] of Object.entries(texts)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return join(dir, Object.keys(texts)[0]!);
}

async function refusal(path: string): Promise<Error> {
  const error = await loadContract(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ContractError);
  return error as Error;
}

/** The JSON schema of an operation's first response's first media type. */
function responseSchema(contract: Contract, id: string): any {
  return contract.operations.find((o) => o.id === id)!.spec.responses[0]!.contents![0]!.schema;
}

const HEAD = 'openapi: 3.0.3\ninfo: { title: Refs, version: "1" }\n';

describe('references that are data', () => {
  // GitHub's published contract holds SCIM examples like these; following them meant downloading them.
  const DATA_REFS = `${HEAD}
paths:
  /groups:
    get:
      operationId: listGroups
      responses:
        '200':
          description: ok
          x-links: { $ref: 'https://unreachable.invalid/extension' }
          content:
            application/json:
              schema:
                type: object
                example: { self: { $ref: 'https://unreachable.invalid/schema-example' } }
                default: { $ref: 'https://unreachable.invalid/default' }
                properties: { members: { type: array, items: { type: object } } }
              examples:
                group: { $ref: '#/components/examples/group' }
components:
  examples:
    group:
      value:
        members:
          - { value: '1', $ref: 'https://unreachable.invalid/scim/v2/Users/1' }
`;

  test('a $ref key inside an example, a default or an x- extension is kept as data, never followed', async () => {
    const contract = await loadContract(await files({ 'groups.yaml': DATA_REFS }));
    const content = contract.operations[0]!.spec.responses[0]!.contents![0]!;
    expect(content.examples).toContainEqual(
      expect.objectContaining({
        key: 'group',
        value: { members: [{ value: '1', $ref: 'https://unreachable.invalid/scim/v2/Users/1' }] },
      }),
    );
    expect(content.schema).toMatchObject({
      examples: [{ self: { $ref: 'https://unreachable.invalid/schema-example' } }],
      default: { $ref: 'https://unreachable.invalid/default' },
    });
  });

  test('an example given whole as a reference to another file is read from that file', async () => {
    const contract = await loadContract(
      await files({
        'main.yaml': `${HEAD}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: array, items: { type: string } }
              example: { $ref: 'examples.yaml#/pets' }
`,
        'examples.yaml': 'pets: [Rex, Tom]\n',
      }),
    );
    const content = contract.operations[0]!.spec.responses[0]!.contents![0]!;
    expect(content.examples).toEqual([expect.objectContaining({ key: 'default', value: ['Rex', 'Tom'] })]);
  });
});

describe('references between files', () => {
  test('relative references are read from the files they name, each relative to its own file', async () => {
    const contract = await loadContract(
      await files({
        'api/main.yaml': `${HEAD}
paths:
  /pets/{id}:
    $ref: 'paths/pet.yaml'
`,
        'api/paths/pet.yaml': `
get:
  operationId: getPet
  parameters: [{ $ref: '../parameters.yaml#/PetId' }]
  responses:
    '200':
      description: ok
      content:
        application/json:
          schema: { $ref: '../../models/pet.yaml#/Pet' }
`,
        'api/parameters.yaml':
          'PetId: { name: id, in: path, required: true, schema: { type: string, maxLength: 8 } }\n',
        'models/pet.yaml': `
Pet:
  type: object
  required: [name]
  properties:
    name: { type: string }
    tag: { $ref: '#/Tag' }
Tag: { type: string, nullable: true }
`,
      }),
    );
    const [operation] = contract.operations;
    expect(operation).toMatchObject({ id: 'getPet', path: '/pets/{id}' });
    expect(operation!.spec.request!.path![0]).toMatchObject({ name: 'id', schema: { maxLength: 8 } });
    expect(responseSchema(contract, 'getPet')).toMatchObject({
      required: ['name'],
      properties: { name: { type: 'string' }, tag: { type: ['string', 'null'] } },
    });
  });

  test("a contract read from a URL has its relative references read from the URL's server", async () => {
    const texts: Record<string, string> = {
      '/api/main.yaml': `${HEAD}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: 'models.yaml#/Pet' } } }
`,
      '/api/models.yaml': 'Pet: { type: object, properties: { name: { type: string } } }\n',
    };
    const server = createServer((req, res) => {
      const text = texts[req.url!];
      res.writeHead(text ? 200 : 404).end(text);
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const contract = await loadContract(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/main.yaml`);
      expect(responseSchema(contract, 'listPets')).toEqual({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { name: { type: 'string' } },
        'x-stoplight': expect.anything(),
      });
    } finally {
      server.close();
    }
  });

  test('a file that is not there is refused, naming the reference and where it is', async () => {
    const error = await refusal(
      await files({
        'main.yaml': `${HEAD}
paths:
  /pets:
    get:
      responses:
        '200': { $ref: 'responses/missing.yaml' }
`,
      }),
    );
    expect(error.message).toMatch(/^Cannot read the file \S+responses\/missing\.yaml/);
    expect(error.message).toContain('(the reference "responses/missing.yaml" at #/paths/~1pets/get/responses/200 in');
    expect(error.message).toMatch(/no such file$/);
  });

  test('a URL that cannot be fetched is refused, naming the reference', async () => {
    const server = createServer((_req, res) => res.writeHead(404).end()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pet.json`;
    try {
      const error = await refusal(
        await files({
          'main.yaml': `${HEAD}
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '${url}#/Pet' } } }
`,
        }),
      );
      expect(error.message).toContain(`Cannot read the file ${url} (the reference "${url}#/Pet" at`);
      expect(error.message).toMatch(/: HTTP 404 Not Found$/);
    } finally {
      server.close();
    }
  });
});

describe('references that lead nowhere', () => {
  test('a pointer to nothing is refused, naming the reference, where it is and what is missing', async () => {
    const error = await refusal(
      await files({
        'main.yaml': `${HEAD}
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/Pett' } } }
components: { schemas: { Pet: { type: object } } }
`,
      }),
    );
    expect(error.message).toMatch(
      /^The reference "#\/components\/schemas\/Pett" at #\/paths\/~1pets\/get\/responses\/200\/content\/application~1json\/schema in the contract \S+main\.yaml leads nowhere: #\/components\/schemas has no "Pett"\.$/,
    );
  });

  test('references that only lead to each other are refused', async () => {
    const error = await refusal(
      await files({
        'main.yaml': `${HEAD}
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/A' } } }
components:
  schemas:
    A: { $ref: '#/components/schemas/B' }
    B: { $ref: '#/components/schemas/A' }
`,
      }),
    );
    expect(error.message).toMatch(/only leads to references, round in a circle/);
  });
});

describe('schemas that contain themselves', () => {
  const TREE = `${HEAD}
paths:
  /nodes:
    get:
      operationId: getTree
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/Node' } } }
  /people:
    get:
      operationId: getPerson
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/Person' } } }
components:
  schemas:
    Node:
      type: object
      properties:
        name: { type: string }
        children: { type: array, items: { $ref: '#/components/schemas/Node' } }
    Person:
      type: object
      properties:
        employer: { $ref: '#/components/schemas/Company' }
        address: { $ref: '#/components/schemas/Address' }
    Company:
      type: object
      properties:
        staff: { type: array, items: { $ref: '#/components/schemas/Person' } }
    Address: { type: object, properties: { city: { type: string } } }
`;

  test('a schema that contains itself refers to itself through #/__bundled__, kept in the operation, as Prism gives it', async () => {
    const contract = await loadContract(await files({ 'tree.yaml': TREE }));
    const spec = contract.operations.find((o) => o.id === 'getTree')!.spec as any;
    const schema = responseSchema(contract, 'getTree');
    expect(schema.properties.children.items).toEqual({ $ref: '#/__bundled__/Node' });
    expect(Object.keys(spec.__bundled__)).toEqual(['Node']);
    expect(spec.__bundled__.Node.properties.children.items).toEqual({ $ref: '#/__bundled__/Node' });
  });

  test('schemas that contain each other are bundled, and a schema outside the cycle is inlined', async () => {
    const contract = await loadContract(await files({ 'tree.yaml': TREE }));
    const spec = contract.operations.find((o) => o.id === 'getPerson')!.spec as any;
    const schema = responseSchema(contract, 'getPerson');
    expect(schema.properties.employer).toEqual({ $ref: '#/__bundled__/Company' });
    expect(schema.properties.address).toEqual({ type: 'object', properties: { city: { type: 'string' } } });
    expect(Object.keys(spec.__bundled__).sort()).toEqual(['Company', 'Person']);
    expect(spec.__bundled__.Company.properties.staff.items).toEqual({ $ref: '#/__bundled__/Person' });
  });

  test('an operation that reaches no cycle has no __bundled__', async () => {
    const contract = await loadContract(
      await files({
        'flat.yaml': `${HEAD}
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/A' } } }
components: { schemas: { A: { type: object, properties: { b: { $ref: '#/components/schemas/B' } } }, B: { type: string } } }
`,
      }),
    );
    expect(contract.operations[0]!.spec).not.toHaveProperty('__bundled__');
    expect(responseSchema(contract, 'GET /a').properties.b).toEqual({ type: 'string' });
  });
});

describe('schemas as Prism reads them', () => {
  test('OpenAPI 3.0 keywords of a referenced schema become JSON Schema', async () => {
    const contract = await loadContract(
      await files({
        'c.yaml': `${HEAD}
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/A' } } }
components:
  schemas:
    A: { type: object, properties: { note: { $ref: '#/components/schemas/Note' } } }
    Note: { type: string, nullable: true, example: hi }
`,
      }),
    );
    expect(responseSchema(contract, 'GET /a').properties.note).toEqual({ type: ['string', 'null'], examples: ['hi'] });
  });

  test('keywords beside a $ref win over those of the schema it names (OpenAPI 3.1)', async () => {
    const contract = await loadContract(
      await files({
        'c.yaml': `openapi: 3.1.0
info: { title: Refs, version: "1" }
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties: { id: { $ref: '#/components/schemas/Id', description: The pet's id, maxLength: 4 } }
components: { schemas: { Id: { type: string, description: An id, maxLength: 10 } } }
`,
      }),
    );
    expect(responseSchema(contract, 'GET /a').properties.id).toEqual({
      type: 'string',
      description: "The pet's id",
      maxLength: 4,
    });
  });

  test('a reference to a parameter with a description beside it gets that description, and a whole schema', async () => {
    const contract = await loadContract(
      await files({
        'c.yaml': `openapi: 3.1.0
info: { title: Refs, version: "1" }
paths:
  /a:
    get:
      parameters: [{ $ref: '#/components/parameters/Limit', description: Page size }]
      responses: { '200': { description: ok } }
components:
  parameters:
    Limit: { name: limit, in: query, description: How many, schema: { type: array, items: { $ref: '#/components/schemas/Count' } } }
  schemas:
    Count: { type: integer, minimum: 1 }
`,
      }),
    );
    expect(contract.operations[0]!.spec.request!.query![0]).toMatchObject({
      name: 'limit',
      description: 'Page size',
      schema: { type: 'array', items: { type: 'integer', minimum: 1 } },
    });
  });

  test("a Swagger 2.0 response's example is read from its schema, as Prism reads it", async () => {
    const contract = await loadContract(
      await files({
        'c.yaml': `swagger: '2.0'
info: { title: Refs, version: "1" }
produces: [application/json]
paths:
  /a:
    get:
      responses:
        '200': { description: ok, schema: { $ref: '#/definitions/A' } }
definitions: { A: { type: object, example: { id: 7 } } }
`,
      }),
    );
    const content = contract.operations[0]!.spec.responses[0]!.contents![0]!;
    expect(content.examples).toEqual([expect.objectContaining({ key: 'default', value: { id: 7 } })]);
    expect(content.schema).toMatchObject({ type: 'object', examples: [{ id: 7 }] });
  });
});
