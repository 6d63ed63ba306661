import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { hostGuard, hostName, isAllowedHost, withListeningHost } from '../../mock/handler/guards/host-guard.js';

/** A request as the guard sees it: its Host header (or none) and its HTTP version. */
const ex = (host: string | undefined, httpVersion = '1.1') => ({
  req: { headers: host === undefined ? {} : { host }, httpVersion } as unknown as IncomingMessage,
  path: '/__mock/calls',
});

describe('isAllowedHost', () => {
  test.each([
    ['127.0.0.1:4010'],
    ['10.1.2.3'],
    ['[::1]:4010'],
    ['[fe80::1]'],
    ['localhost'],
    ['LOCALHOST:80'],
    ['localhost.'],
    ['app.localhost:5173'],
  ])('allows %s without being told', (host) => {
    expect(isAllowedHost(host, [])).toBe(true);
  });

  test.each([
    ['evil.example'],
    ['evil.example:4010'],
    ['127.0.0.1.evil.example'],
    ['localhost.evil.example'],
    ['evillocalhost'],
    ['127.1'],
    ['[evil.example]'],
    ['[::1'],
    ['user@localhost'],
    ['localhost/x'],
    ['a b'],
    [''],
  ])('refuses %j without being told', (host) => {
    expect(isAllowedHost(host, [])).toBe(false);
  });

  test('allows a listed name with any port, and not its subdomains', () => {
    expect(isAllowedHost('Mock.Lan:4010', ['mock.lan'])).toBe(true);
    expect(isAllowedHost('sub.mock.lan', ['mock.lan'])).toBe(false);
  });

  test('a listed name with a leading dot allows the name and its subdomains, not names that end like it', () => {
    expect(isAllowedHost('example.com', ['.example.com'])).toBe(true);
    expect(isAllowedHost('demo.eu.example.com:443', ['.example.com'])).toBe(true);
    expect(isAllowedHost('evilexample.com', ['.example.com'])).toBe(false);
  });
});

describe('hostName', () => {
  test('drops the port and a final dot, and lowers the case', () => {
    expect(hostName('Demo.Example.COM.:4010')).toBe('demo.example.com');
  });

  test('keeps an IPv6 address in its brackets', () => {
    expect(hostName('[::1]:4010')).toBe('[::1]');
  });

  test.each([['a..b'], ['.example.com'], ['host:port'], ['a/b']])('finds no host name in %j', (text) => {
    expect(hostName(text)).toBeUndefined();
  });
});

describe('hostGuard', () => {
  test('refuses an unknown host with a 403 that names it and the flag to allow it', () => {
    const reply = hostGuard({ admin: {}, allowedHosts: [] })(ex('evil.example:4010'));
    expect(reply?.status).toBe(403);
    expect(reply?.body).toMatchObject({
      type: 'https://example.com/problems/forbidden-host',
      detail: expect.stringContaining('Allow this name with --allowed-hosts evil.example'),
    });
  });

  test('lets a host of allowedHosts through', () => {
    expect(hostGuard({ admin: {}, allowedHosts: ['.example.com'] })(ex('demo.example.com'))).toBeUndefined();
  });

  test('refuses an HTTP/1.1 request without Host', () => {
    expect(hostGuard({ admin: {}, allowedHosts: [] })(ex(undefined))?.status).toBe(403);
  });

  test('lets an HTTP/1.0 request without Host through', () => {
    expect(hostGuard({ admin: {}, allowedHosts: [] })(ex(undefined, '1.0'))).toBeUndefined();
  });

  test('refuses an unknown host after a known one was let through', () => {
    const guard = hostGuard({ admin: {}, allowedHosts: [] });
    expect(guard(ex('localhost'))).toBeUndefined();
    expect(guard(ex('evil.example'))?.status).toBe(403);
  });

  test('lets every host through with allowedHosts: true', () => {
    expect(hostGuard({ admin: {}, allowedHosts: true })(ex('evil.example'))).toBeUndefined();
  });

  test('lets every host through when an admin token protects the admin API', () => {
    expect(hostGuard({ admin: { token: 's3cret' }, allowedHosts: [] })(ex('evil.example'))).toBeUndefined();
  });

  test('checks hosts when the admin API is off, for the contract API', () => {
    expect(hostGuard({ admin: false, allowedHosts: [] })(ex('evil.example'))?.status).toBe(403);
  });

  test('throws for an entry of allowedHosts that is not a host name', () => {
    expect(() => hostGuard({ admin: {}, allowedHosts: ['http://mock.lan'] })).toThrow(
      'allowedHosts: "http://mock.lan" is not a host name.',
    );
  });
});

describe('withListeningHost', () => {
  test('adds the host name the mock listens on', () => {
    expect(withListeningHost(['demo.example'], 'mock.lan')).toEqual(['demo.example', 'mock.lan']);
  });

  test.each([['0.0.0.0'], ['::'], ['192.168.1.20']])('adds no address such as %s', (host) => {
    expect(withListeningHost([], host)).toEqual([]);
  });

  test('keeps every host allowed', () => {
    expect(withListeningHost(true, 'mock.lan')).toBe(true);
  });
});
