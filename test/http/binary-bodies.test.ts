// A request body that is bytes, not text (an image, a file), is recorded byte for byte: as base64, saying so.
// Its text would hold U+FFFD where its bytes were, and a HAR or a test reading it back would get other bytes.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const CONTRACT = `
openapi: 3.0.3
info: { title: Files, version: '1' }
paths:
  /files:
    put:
      operationId: putFile
      requestBody: { content: { application/octet-stream: { schema: { type: string, format: binary } } } }
      responses: { '204': { description: stored } }
`;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);
const appOf = async () => createApp(await loadContract(await inlineContract(CONTRACT)));
const put = (app: Awaited<ReturnType<typeof appOf>>['app'], bytes: Buffer) =>
  request(app).put('/files').set('content-type', 'application/octet-stream').send(bytes).expect(204);

describe('a body of bytes that are not UTF-8 text', () => {
  test('is recorded as base64, its encoding said, so its bytes come back whole', async () => {
    const mock = await appOf();
    await put(mock.app, PNG);
    const [call] = mock.calls();
    expect(call).toMatchObject({ body: PNG.toString('base64'), bodyEncoding: 'base64' });
    expect(Buffer.from(call!.body as string, 'base64')).toEqual(PNG);
    const listed = (await request(mock.app).get('/__mock/calls').expect(200)).body.calls[0];
    expect(listed).toMatchObject({ body: PNG.toString('base64'), bodyEncoding: 'base64' });
  });

  test('is exported to HAR as base64 text, marked so', async () => {
    const mock = await appOf();
    await put(mock.app, PNG);
    const archive = (await request(mock.app).get('/__mock/calls.har').expect(200)).body;
    expect(archive.log.entries[0].request.postData).toMatchObject({
      mimeType: 'application/octet-stream',
      text: PNG.toString('base64'),
      _encoding: 'base64',
    });
    expect(archive.log.entries[0].request.bodySize).toBe(PNG.length);
  });

  test('is left out of the Pact, which holds text and JSON bodies only', async () => {
    const mock = await appOf();
    await put(mock.app, PNG);
    const pact = mock.pact({ consumer: 'web', provider: 'files' });
    expect(pact.interactions).toEqual([]);
  });
});

test('a body of bytes that are UTF-8 text is recorded as that text', async () => {
  const mock = await appOf();
  await put(mock.app, Buffer.from('plain words é'));
  const [call] = mock.calls();
  expect(call!.body).toBe('plain words é');
  expect(call).not.toHaveProperty('bodyEncoding');
});
