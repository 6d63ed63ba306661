import type { IHttpOperation } from '@stoplight/types';
import { describe, expect, test } from 'vitest';
import { serverPaths, withBasePath } from '../../mock/contract/server-paths.js';

const server = (url: string, variables?: Record<string, { default?: string; enum?: string[] }>) => ({
  id: url,
  url,
  ...(variables ? { variables: variables as never } : {}),
});

describe('serverPaths', () => {
  test.each([
    ['an absolute URL', 'https://api.example.com/v1', ['/v1']],
    ['an absolute URL with a trailing slash', 'https://api.example.com/v1/', ['/v1']],
    ['a relative URL', '/v1', ['/v1']],
    ['a relative URL without its leading slash', 'v1/api', ['/v1/api']],
    ['a URL at the root', 'https://api.example.com', []],
    ['a relative root', '/', []],
    ['a scheme-relative URL', '//api.example.com/base', ['/base']],
  ])('reads the path of %s', (_name, url, paths) => {
    expect(serverPaths([server(url)])).toEqual(paths);
  });

  test('fills variables with their default and enum values', () => {
    const templated = server('{scheme}://{host}/{version}/api', {
      scheme: { default: 'https' },
      host: { default: 'example.com' },
      version: { default: 'v3', enum: ['v3', 'v4'] },
    });
    expect(serverPaths([templated])).toEqual(['/v3/api', '/v4/api']);
  });

  test('a variable with no value, or one not declared, adds no path', () => {
    expect(serverPaths([server('https://x.com/{version}', { version: {} })])).toEqual([]);
    expect(serverPaths([server('https://x.com/{version}')])).toEqual([]);
  });

  test('a variable whose default is a whole URL at the root (our own contract) adds no path', () => {
    expect(serverPaths([server('{base_url}', { base_url: { default: 'http://127.0.0.1:4010' } })])).toEqual([]);
  });

  test('lists each path once', () => {
    expect(serverPaths([server('https://a.com/v1'), server('https://b.com/v1/')])).toEqual(['/v1']);
  });
});

describe('withBasePath', () => {
  const spec = (servers: { id: string; url: string }[] = []) => ({ servers }) as unknown as IHttpOperation;

  test('gives a Swagger 2 basePath to operations without servers', () => {
    const [op] = withBasePath([spec()], { swagger: '2.0', basePath: '/v2' });
    expect(op!.servers).toEqual([{ id: 'basePath', url: '/v2' }]);
  });

  test('keeps the servers an operation has, and ignores OpenAPI 3 documents and a root basePath', () => {
    expect(withBasePath([spec([server('https://h/v2')])], { swagger: '2.0', basePath: '/v2' })[0]!.servers).toEqual([
      server('https://h/v2'),
    ]);
    expect(withBasePath([spec()], { openapi: '3.0.0', basePath: '/v2' })[0]!.servers).toEqual([]);
    expect(withBasePath([spec()], { swagger: '2.0', basePath: '/' })[0]!.servers).toEqual([]);
  });
});
