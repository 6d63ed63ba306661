import { describe, expect, test } from 'vitest';
import { createRedactor, redactSecret, secretNames } from '../../mock/journal/redact.js';

const none = { headers: new Set<string>(), query: new Set<string>() };
const redact = createRedactor(() => none);

describe('redacting secrets out of the journal', () => {
  test('a bearer token keeps its scheme and gets a fingerprint of the token', () => {
    const { headers } = redact({ authorization: 'Bearer abc' }, {});
    expect(headers.authorization).toBe('Bearer [redacted sha256:ba7816bf]');
  });

  test('redactSecret gives what the journal records, so a test can name the token it expects', () => {
    expect(redact({ authorization: 'Basic dTpw' }, {}).headers.authorization).toBe(redactSecret('Basic dTpw'));
  });

  test('two tokens get two fingerprints', () => {
    expect(redactSecret('Bearer one')).not.toBe(redactSecret('Bearer two'));
  });

  test('a credential without a scheme is a fingerprint alone', () => {
    expect(redact({ 'proxy-authorization': 'token' }, {}).headers['proxy-authorization']).toMatch(
      /^\[redacted sha256:[0-9a-f]{8}\]$/,
    );
  });

  test('cookies keep their names and lose their values', () => {
    const { headers } = redact({ cookie: 'sid=abc; theme=dark' }, {});
    expect(headers.cookie).toMatch(/^sid=\[redacted sha256:ba7816bf\]; theme=\[redacted sha256:[0-9a-f]{8}\]$/);
  });

  test('the same value under another header is redacted as that header says, and again the same', () => {
    const own = createRedactor(() => none);
    const sent = { authorization: 'sid=abc; x=1', cookie: 'sid=abc; x=1', 'set-cookie': 'sid=abc; x=1' };
    const expected = {
      authorization: 'sid=abc; [redacted sha256:1f206b11]',
      cookie: 'sid=[redacted sha256:ba7816bf]; x=[redacted sha256:6b86b273]',
      'set-cookie': 'sid=[redacted sha256:ba7816bf]; x=1',
    };
    expect(own(sent, {}).headers).toEqual(expected);
    expect(own({ ...sent }, {}).headers).toEqual(expected);
  });

  test('a Set-Cookie keeps its attributes, whatever the case of its name', () => {
    const { headers } = redact({ 'Set-Cookie': 'sid=abc; Path=/; HttpOnly' }, {});
    expect(headers['Set-Cookie']).toBe('sid=[redacted sha256:ba7816bf]; Path=/; HttpOnly');
  });

  test('the contract’s API key header and query parameter are redacted, other values kept', () => {
    const keyed = createRedactor(() => ({ headers: new Set(['x-api-key']), query: new Set(['api_key']) }));
    const { headers, query } = keyed({ 'x-api-key': 'abc', 'x-other': 'abc' }, { api_key: ['abc', 'abc'], q: 'abc' });
    expect(headers).toEqual({ 'x-api-key': '[redacted sha256:ba7816bf]', 'x-other': 'abc' });
    expect(query).toEqual({ api_key: ['[redacted sha256:ba7816bf]', '[redacted sha256:ba7816bf]'], q: 'abc' });
  });

  test('headers and query without secrets are handed back as they are, not copied', () => {
    const headers = { accept: 'application/json' };
    const query = { limit: '2' };
    const out = redact(headers, query);
    expect(out.headers).toBe(headers);
    expect(out.query).toBe(query);
  });

  test('the originals are never changed', () => {
    const headers = { authorization: 'Bearer abc' };
    redact(headers, {});
    expect(headers.authorization).toBe('Bearer abc');
  });

  test('the API key names are read from every operation’s apiKey schemes, and only those', () => {
    const names = secretNames([
      { spec: { security: [[{ type: 'apiKey', in: 'header', name: 'X-Api-Key', key: 'k', id: 'k' }]] } },
      { spec: { security: [[{ type: 'apiKey', in: 'query', name: 'api_key', key: 'q', id: 'q' }]] } },
      { spec: { security: [[{ type: 'http', scheme: 'bearer', key: 'b', id: 'b' }]] } },
      { spec: {} },
    ]);
    expect(names).toEqual({ headers: new Set(['x-api-key']), query: new Set(['api_key']) });
  });
});
