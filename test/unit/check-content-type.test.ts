// A request body's Content-Type against the media types its operation documents.
import { describe, expect, test } from 'vitest';
import { checkContentType } from '../../mock/http/check-content-type.js';

describe('checkContentType', () => {
  test.each([
    ['application/json', ['application/json']],
    ['Application/JSON; charset=utf-8', ['application/json']],
    ['  application/json  ;charset=utf-8', ['application/json']],
    ['application/merge-patch+json', ['application/*']],
    ['text/plain', ['application/json', '*/*']],
  ])('%j is accepted by %j', (sent, listed) => {
    expect(checkContentType(listed, sent)).toBeUndefined();
  });

  test('a contract that lists no media type accepts any, or none', () => {
    expect(checkContentType([], undefined)).toBeUndefined();
    expect(checkContentType([], 'text/plain')).toBeUndefined();
  });

  test.each([
    [
      'text/plain',
      ['application/json', 'application/xml'],
      'Content-Type "text/plain" is not accepted; send one of: application/json, application/xml.',
    ],
    // A wildcard of another type, or the type alone without a subtype, does not fit.
    ['text/json', ['application/*'], 'Content-Type "text/json" is not accepted; send one of: application/*.'],
    ['application', ['application/*'], 'Content-Type "application" is not accepted; send one of: application/*.'],
    [
      'application/jsonx',
      ['application/json'],
      'Content-Type "application/jsonx" is not accepted; send one of: application/json.',
    ],
  ])('%j is refused by %j', (sent, listed, message) => {
    expect(checkContentType(listed, sent)).toEqual({ location: 'header', pointer: '/content-type', message });
  });

  test.each([undefined, '', ' ; charset=utf-8'])('a body with Content-Type %j is told to send one', (sent) => {
    expect(checkContentType(['application/json', 'text/plain'], sent)).toEqual({
      location: 'header',
      pointer: '/content-type',
      message: 'A body needs a Content-Type; send one of: application/json, text/plain.',
    });
  });
});
