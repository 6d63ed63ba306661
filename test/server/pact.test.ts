// The journal as a Pact v3, checked the way a provider team would: pact-js's verifier replays it against a
// server. Against the mock itself (stateless, so every answer is the contract's) it passes; against one that
// answers otherwise it fails.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { toPact } from '../../mock/reports/pact.js';
import { CallTally } from '../../mock/reports/coverage.js';
import type { Pact, RunningMock } from '../../mock/index.js';
import { serve } from '../../mock/plan/serve.js';
import { AUTH, newMock, newServer } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

const PARTIES = { consumer: 'web-app', provider: 'membership' };
const PASS_ID = 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M';

const started: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

/** What a front-end's tests send: two shapes of list, a create, a read, a delete, and calls a pact leaves out. */
async function recorded() {
  const mock = await newMock({ stateless: true, seed: 4 });
  await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  await request(mock.app).get('/members/m2/passes').set(AUTH).expect(200); // same shape: no new interaction
  await request(mock.app).get('/members/m1/passes?limit=5').set(AUTH).expect(200);
  await request(mock.app).post('/members/m1/passes').set(AUTH).send({ name: 'Gold' }).expect(201);
  await request(mock.app).get(`/members/m1/passes/${PASS_ID}`).set(AUTH).expect(200);
  await request(mock.app).delete(`/members/m1/passes/${PASS_ID}`).set(AUTH).expect(204);
  await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'password' }); // breaks it
  await request(mock.app).get('/nowhere').set(AUTH); // no operation
  return mock;
}

async function verify(pact: Pact, providerBaseUrl: string): Promise<void> {
  const file = join(await mkdtemp(join(tmpdir(), 'pact-')), 'web-app-membership.json');
  await writeFile(file, JSON.stringify(pact));
  await new Verifier({
    provider: 'membership',
    providerBaseUrl,
    pactUrls: [file],
    customProviderHeaders: { Authorization: 'Bearer provider-token' },
    logLevel: 'error',
    // pact-js's proxy parses a form the pact core sent and passes it on as JSON (its parseBody): put its text back.
    requestFilter: (req, _res, next) => {
      if (/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? ''))
        req.body = Buffer.from(new URLSearchParams(req.body as Record<string, string>).toString());
      next();
    },
  }).verifyProvider();
}

describe('the journal as a Pact v3', () => {
  test('has one interaction per request shape, and leaves out what the consumer did not rely on', async () => {
    const pact = (await recorded()).pact(PARTIES);
    expect(pact.consumer).toEqual({ name: 'web-app' });
    expect(pact.provider).toEqual({ name: 'membership' });
    expect(pact.metadata.pactSpecification.version).toBe('3.0.0');
    expect(pact.interactions.map((i) => i.description)).toEqual([
      'listPasses: GET /members/{member_id}/passes → 200 (no query, no body fields)',
      'listPasses: GET /members/{member_id}/passes → 200 (query limit)',
      'createPass: POST /members/{member_id}/passes → 201',
      'getPass: GET /members/{member_id}/passes/{pass_id} → 200',
      'deletePass: DELETE /members/{member_id}/passes/{pass_id} → 204',
    ]);
    expect(pact.metadata['membership-mock'].left_out).toEqual([
      expect.stringMatching(/^call-\d+ POST \/members\/m1\/credentials: its request broke the contract$/),
      expect.stringMatching(/^call-\d+ GET \/nowhere: no operation of the contract matched$/),
    ]);
  });

  test('keeps the first call of each shape: the status, the method and the body fields each make one', async () => {
    const mock = await newMock({ seed: 4 });
    const created = await request(mock.app).post('/members/m1/passes').set(AUTH).send({ name: 'Gold' }).expect(201);
    await request(mock.app).post('/members/m2/passes').set(AUTH).send({ name: 'Silver' }).expect(201); // the same
    await request(mock.app).post('/members/m1/passes').set(AUTH).send({}).expect(201);
    await request(mock.app).get(`/members/m1/passes/${created.body.id}`).set(AUTH).expect(200);
    await request(mock.app).get('/members/m1/passes/pas_unknown').set(AUTH).expect(404);
    await request(mock.app).get('/members/m1/passes/pas_other').set(AUTH).expect(404); // the same
    await request(mock.app).head('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).get('/members/m2/passes').set(AUTH).expect(200); // the same
    await request(mock.app).get('/members/m1/passes?limit=2').set(AUTH).expect(200);
    await request(mock.app).get('/members/m2/passes?limit=5').set(AUTH).expect(200); // the same
    // The tally itself (toPact would merge repeated shapes again).
    const tally = new CallTally(serve(mock.contract));
    for (const call of mock.calls()) tally.add(call);
    const kept = tally.shapes().calls.map((call) => `${call.method} ${call.path} ${call.response.status}`);
    expect(kept).toEqual([
      'POST /members/m1/passes 201',
      'POST /members/m1/passes 201',
      `GET /members/m1/passes/${created.body.id} 200`,
      'GET /members/m1/passes/pas_unknown 404',
      'HEAD /members/m1/passes 200',
      'GET /members/m1/passes 200',
      'GET /members/m1/passes 200',
    ]);
    expect(tally.shapes().calls[1]!.body).toEqual({});
    expect(tally.shapes().calls[6]!.query).toEqual({ limit: '2' });
    tally.clear();
    tally.add(mock.calls()[0]!);
    expect(tally.shapes().calls).toHaveLength(1);
  });

  test('holds the request as sent, and the answer with matching rules from the schema', async () => {
    const pact = (await recorded()).pact(PARTIES);
    const [, withLimit, create] = pact.interactions;
    expect(withLimit!.request).toEqual({ method: 'GET', path: '/members/m1/passes', query: { limit: ['5'] } });
    expect(create!.request).toEqual({
      method: 'POST',
      path: '/members/m1/passes',
      headers: { 'Content-Type': 'application/json' },
      body: { name: 'Gold' },
    });
    const rules = create!.response.matchingRules!.body!;
    expect(rules['$.id']).toEqual({ matchers: [{ match: 'regex', regex: '^pas_[0-9A-HJKMNP-TV-Z]{26}$' }] });
    expect(rules['$.status']).toEqual({ matchers: [{ match: 'regex', regex: '^(active|suspended|expired)$' }] });
    expect(rules['$.created_at']!.matchers[0]).toMatchObject({ match: 'regex' });
    expect(rules['$.name']).toEqual({ matchers: [{ match: 'type' }] });
    expect(pact.interactions[0]!.response.matchingRules!.body!['$.data']).toEqual({
      matchers: [{ match: 'type', min: 0 }],
    });
    expect(create!.response.matchingRules!.header).toEqual({
      'Content-Type': { matchers: [{ match: 'regex', regex: '^application\\/json(\\s*;.*)?$' }] },
    });
  });

  test('leaves out of the expected body a null the schema allows beside another type', async () => {
    const mock = await newMock({ seed: 4 });
    mock.setState({ '/members/m1/passes': [{ name: 'Gold', valid_until: null }] });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    const [list] = mock.pact(PARTIES).interactions;
    const [pass] = (list!.response.body as { data: Record<string, unknown>[] }).data;
    expect(pass).toMatchObject({ name: 'Gold', status: 'active' });
    expect(pass).not.toHaveProperty('valid_until');
    expect(list!.response.body).not.toHaveProperty('next_cursor');
    expect(mock.calls()[0]!.response.body).toMatchObject({ data: [{ valid_until: null }], next_cursor: null });
  });

  test('leaves out a nullable property whatever it held: the provider may answer null or a value', async () => {
    const mock = await newMock({ seed: 4 });
    mock.setState({ '/members/m1/passes': [{ name: 'Gold', valid_until: '2027-01-01T00:00:00Z' }] });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    const [pass] = (mock.pact(PARTIES).interactions[0]!.response.body as { data: Record<string, unknown>[] }).data;
    expect(pass).toMatchObject({ name: 'Gold' });
    expect(pass).not.toHaveProperty('valid_until');
  });

  test('leaves out answers the test chose (an override, Prefer), which the provider would not give', async () => {
    const mock = await newMock({ seed: 4 });
    mock.override({ operationId: 'listPasses', status: 500, times: 1 });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(500);
    await request(mock.app).get('/members/m1/credentials').set(AUTH).set('Prefer', 'code=404').expect(404);
    const [overridden, preferred] = mock.calls();
    expect([overridden!.answeredBy, preferred!.answeredBy]).toEqual(['override', 'prefer']);
    const pact = mock.pact(PARTIES);
    expect(pact.interactions).toEqual([]);
    expect(pact.metadata['membership-mock'].left_out).toEqual([
      expect.stringMatching(/: the test chose its answer \(an override\)$/),
      expect.stringMatching(/: the test chose its answer \(Prefer\)$/),
    ]);
  });

  test('gives shapes the words do not tell apart descriptions of their own', async () => {
    const mock = await newMock({ stateless: true, seed: 4 });
    await request(mock.app).post('/members/m1/passes').set(AUTH).send({}).expect(201);
    const [withEmpty] = mock.calls();
    // The same create without a body (an operation whose body is optional): no query, no body fields either.
    const withNone = { ...withEmpty!, id: 'call-99', body: undefined };
    const pact = toPact([withEmpty!, withNone], serve(mock.contract).plans, PARTIES);
    expect(pact.interactions.map((i) => i.description)).toEqual([
      'createPass: POST /members/{member_id}/passes → 201 (no query, no body fields)',
      'createPass: POST /members/{member_id}/passes → 201 (no query, no body fields) #2',
    ]);
  });

  test('GET /__mock/pact answers the pact as a file, and needs both parties', async () => {
    const mock = await recorded();
    const res = await request(mock.app).get('/__mock/pact?consumer=web-app&provider=membership').expect(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="web-app-membership.json"');
    expect(res.body).toEqual(mock.pact(PARTIES));
    const missing = await request(mock.app).get('/__mock/pact?consumer=web-app').expect(400);
    expect(missing.body.detail).toMatch(/^provider must be given once/);
  });
});

describe("pact-js's verifier", () => {
  test('passes the pact against the mock of the same contract', async () => {
    const pact = (await recorded()).pact(PARTIES);
    const provider = await newServer({ stateless: true, seed: 99 });
    started.push(provider);
    await verify(pact, provider.url);
  }, 60_000);

  test('fails the pact against a provider whose answers differ', async () => {
    const pact = (await recorded()).pact(PARTIES);
    const provider = await newServer({ stateless: true, seed: 99 });
    started.push(provider);
    provider.override({ operationId: 'getPass', status: 404 });
    // The one interaction that differs is named; the others still pass.
    const failed = await verify(pact, provider.url).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/getPass: GET \/members\/\{member_id\}\/passes\/\{pass_id\} → 200/);
    expect(failed).not.toMatch(/"interaction":"[^"]*(listPasses|createPass|deletePass)/);
  }, 60_000);
});

/** A contract with what a verifier reads closely: a form body, two media types answered, an odd property name. */
const ODD_CONTRACT = `openapi: 3.0.3
info: { title: Odd, version: '1' }
paths:
  /report:
    get:
      operationId: getReport
      responses:
        '200':
          description: ok
          content:
            application/json: { schema: { type: object, properties: { n: { type: integer } }, required: [n] } }
            text/csv: { schema: { type: string } }
  /login:
    post:
      operationId: login
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, required: [user], properties: { user: { type: string }, note: { type: string } } }
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { type: object, properties: { ok: { type: boolean } }, required: [ok] } } }
  /odd:
    get:
      operationId: getOdd
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: ["it's", 'a b', 'x.y']
                properties: { "it's": { type: string }, 'a b': { type: integer }, 'x.y': { type: string } }
`;

/** A mock of {@link ODD_CONTRACT} for the consumer's calls, and one (stateless) to verify them against. */
async function oddPair(): Promise<{ consumer: RunningMock; provider: RunningMock }> {
  const contract = await inlineContract(ODD_CONTRACT);
  const consumer = await newServer({ contract, seed: 4 });
  const provider = await newServer({ contract, seed: 9, stateless: true });
  started.push(consumer, provider);
  return { consumer, provider };
}

describe('a pact of what a verifier reads closely', () => {
  test('writes a form body as the urlencoded text it was sent as', async () => {
    const { consumer, provider } = await oddPair();
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const res = await fetch(`${consumer.url}/login`, {
      method: 'POST',
      headers: form,
      body: 'user=bob+smith&note=a%26b',
    });
    expect(res.status).toBe(200);
    const pact = consumer.pact(PARTIES);
    expect(pact.interactions[0]!.request.body).toBe('user=bob+smith&note=a%26b');
    await verify(pact, provider.url);
    expect(provider.calls()[0]!.body).toEqual({ user: 'bob smith', note: 'a&b' });
  }, 60_000);

  test('asks for the media type the consumer asked for, when the answer has several', async () => {
    const { consumer, provider } = await oddPair();
    const res = await fetch(`${consumer.url}/report`, { headers: { Accept: 'text/csv' } });
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const pact = consumer.pact(PARTIES);
    expect(pact.interactions[0]!.request.headers).toEqual({ Accept: 'text/csv' });
    await verify(pact, provider.url);
  }, 60_000);

  test('makes answers of one operation in two media types two interactions, each asking for its own', async () => {
    const { consumer, provider } = await oddPair();
    const json = await fetch(`${consumer.url}/report`, { headers: { Accept: 'application/json' } });
    const csv = await fetch(`${consumer.url}/report`, { headers: { Accept: 'text/csv' } });
    expect([json.headers.get('content-type'), csv.headers.get('content-type')]).toEqual([
      expect.stringMatching(/^application\/json/),
      expect.stringMatching(/^text\/csv/),
    ]);
    const [jsonBody, csvBody] = [await json.json(), await csv.text()];
    const pact = consumer.pact(PARTIES);
    expect(pact.interactions.map((i) => [i.description, i.request.headers, i.response.headers])).toEqual([
      [
        'getReport: GET /report → 200 application/json',
        { Accept: 'application/json' },
        { 'Content-Type': expect.stringMatching(/^application\/json/) },
      ],
      [
        'getReport: GET /report → 200 text/csv',
        { Accept: 'text/csv' },
        { 'Content-Type': expect.stringMatching(/^text\/csv/) },
      ],
    ]);
    const [asJson, asCsv] = pact.interactions;
    expect(asJson!.response.body).toEqual(jsonBody);
    expect(asJson!.response.matchingRules!.body).toEqual({ '$.n': { matchers: [{ match: 'type' }] } });
    expect(asCsv!.response.body).toBe(csvBody);
    expect(asCsv!.response.matchingRules!.header).toEqual({
      'Content-Type': { matchers: [{ match: 'regex', regex: '^text\\/csv(\\s*;.*)?$' }] },
    });
    await verify(pact, provider.url);
  }, 60_000);

  test('keeps a call of each media type answered, and takes one that differs in its charset alone for the same', async () => {
    const mock = await newMock({ contract: await inlineContract(ODD_CONTRACT), seed: 4 });
    await request(mock.app).get('/report').set('Accept', 'application/json').expect(200);
    await request(mock.app).get('/report').set('Accept', 'text/csv').expect(200);
    await request(mock.app).get('/report').expect(200); // JSON again: the same shape
    const tally = new CallTally(serve(mock.contract));
    for (const call of mock.calls()) tally.add(call);
    const kept = tally.shapes().calls.map((call) => [call.headers.accept, call.response.headers['content-type']]);
    expect(kept).toEqual([
      ['application/json', 'application/json'],
      ['text/csv', 'text/csv'],
    ]);
    const [json] = mock.calls();
    const headers = { 'content-type': 'Application/JSON; charset=utf-8' };
    const withCharset = { ...json!, id: 'call-99', response: { ...json!.response, headers } };
    // A backend's answers, whose parameters may differ each time, take one shape of the tally's bounded number.
    const proxied = new CallTally(serve(mock.contract));
    for (const charset of ['utf-8', 'UTF-8', 'utf8'])
      proxied.add({
        ...withCharset,
        answeredBy: 'proxy',
        response: {
          ...json!.response,
          headers: {
            'content-type': `application/json; charset=${charset}`,
          },
        },
      });
    expect(proxied.shapes().calls).toHaveLength(1);
    const pact = toPact([json!, withCharset], serve(mock.contract).plans, PARTIES);
    expect(pact.interactions.map((i) => i.description)).toEqual(['getReport: GET /report → 200']);
  });

  test("names every property a Pact path can name, and matches one it cannot (a ') by its object's type", async () => {
    const { consumer, provider } = await oddPair();
    expect((await fetch(`${consumer.url}/odd`)).status).toBe(200);
    const pact = consumer.pact(PARTIES);
    expect(pact.interactions[0]!.response.matchingRules!.body).toEqual({
      $: { matchers: [{ match: 'type' }] },
      "$['a b']": { matchers: [{ match: 'type' }] },
      "$['x.y']": { matchers: [{ match: 'type' }] },
    });
    await verify(pact, provider.url);
    // The provider drew another value: compared exactly, it would have failed.
    const expected = pact.interactions[0]!.response.body as Record<string, unknown>;
    expect(provider.calls()[0]!.response.body).not.toMatchObject({ "it's": expected["it's"] });
  }, 60_000);
});
