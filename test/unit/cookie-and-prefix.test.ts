// The two small readers the session cookie and the mounts share: one cookie of a Cookie header, a path's prefix.
import { describe, expect, test } from 'vitest';
import { cookieValue, withoutCookie } from '../../mock/http/cookie-header.js';
import { below, isUnder, withoutPrefix } from '../../mock/lib/path-prefix.js';

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

describe('a path below a mount, read as the router reads it (segments percent-decoded)', () => {
  test.each<[string, string, string | undefined]>([
    ['/p%61yments/charges', '/payments', '/charges'],
    ['/p%61yments', '/payments', '/'],
    ['/api/v%31/x', '/api/v1', '/x'],
    ['/p%61yments%2Fcharges', '/payments', undefined],
    ['/p%61ymentsX/charges', '/payments', undefined],
    ['/%E0%A4%A/charges', '/payments', undefined],
  ])('%s below %s: %s', (path, prefix, rest) => {
    expect(below(path, prefix)).toBe(rest);
    expect(withoutPrefix(path, prefix)).toBe(rest ?? path);
  });
});
