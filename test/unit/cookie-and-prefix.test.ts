// The two small readers the session cookie and the mounts share: one cookie of a Cookie header, a path's prefix.
import { describe, expect, test } from 'vitest';
import { cookieValue, withoutCookie } from '../../mock/http/cookie-header.js';
import { isUnder, withoutPrefix } from '../../mock/lib/path-prefix.js';

describe('a cookie of a Cookie header', () => {
  test.each<[string | undefined, string | undefined]>([
    ['theme=dark; mock-session=w1', 'w1'],
    ['mock-session="w 2"', 'w 2'],
    ['my-mock-session=x; other=mock-session', undefined],
    ['mock-session', undefined],
    [undefined, undefined],
  ])('in %j, mock-session is %j', (header, value) => {
    expect(cookieValue(header, 'mock-session')).toBe(value);
  });

  test('is taken out, the others kept in order', () => {
    expect(withoutCookie('a=1; mock-session=w1; b=2', 'mock-session')).toBe('a=1; b=2');
    expect(withoutCookie('mock-session=w1', 'mock-session')).toBe('');
    expect(withoutCookie('my-mock-session=x', 'mock-session')).toBe('my-mock-session=x');
  });
});

describe('a path under a prefix', () => {
  test.each<[string, string, boolean, string]>([
    ['/payments', '/payments', true, '/'],
    ['/payments/charges', '/payments', true, '/charges'],
    ['/paymentsX/charges', '/payments', false, '/paymentsX/charges'],
    ['/pay', '/payments', false, '/pay'],
  ])('%s under %s: %s, then %s', (path, prefix, under, rest) => {
    expect(isUnder(path, prefix)).toBe(under);
    expect(withoutPrefix(path, prefix)).toBe(rest);
  });
});
