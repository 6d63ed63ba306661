import { describe, expect, test } from 'vitest';
import { readStoreUrl, redactSecrets, redactUrl } from '../../mock/node/redis-store-url.js';

describe('readStoreUrl', () => {
  test('reads the address, the prefix and the bounds', () => {
    expect(readStoreUrl('redis://localhost:6379/0?prefix=demo:&snapshotEvery=5&maxQueued=7')).toEqual({
      address: 'redis://localhost:6379/0',
      prefix: 'demo:',
      snapshotEvery: 5,
      maxQueued: 7,
    });
  });

  test.each([
    ['not a URL', 'localhost:6379', /--store takes redis:\/\/host:port\/db/],
    ['another scheme', 'http://localhost:6379', /--store takes redis:\/\/host:port\/db/],
    ['an empty prefix', 'redis://localhost:6379/0?prefix=', /prefix must not be empty/],
    ['a snapshotEvery of 0', 'redis://localhost:6379/0?snapshotEvery=0', /snapshotEvery must be a whole number/],
    ['a maxQueued of 1.5', 'redis://localhost:6379/0?maxQueued=1.5', /maxQueued must be a whole number/],
  ])('refuses %s, naming --store', (_name, url, message) => {
    expect(() => readStoreUrl(url)).toThrow(message);
    expect(() => readStoreUrl(url)).toThrow(/--store/);
  });

  test('names a URL it refuses without its password', () => {
    expect(() => readStoreUrl('http://app:s3cret@localhost:6379')).toThrow('"http://***@localhost:6379"');
  });
});

describe('redactUrl and redactSecrets', () => {
  test('replace the user and password of the URL', () => {
    expect(redactUrl('redis://app:s3cret@redis:6379/0?prefix=a:')).toBe('redis://***@redis:6379/0?prefix=a:');
    expect(redactUrl('redis://redis:6379/0')).toBe('redis://redis:6379/0');
  });

  test('take the password out of a message, as given and as the URL encodes it', () => {
    const url = 'rediss://:p%40ss-word@redis:6380/0';
    expect(redactSecrets(`WRONGPASS for p@ss-word at ${url}`, url)).toBe(
      'WRONGPASS for *** at rediss://***@redis:6380/0',
    );
  });
});
