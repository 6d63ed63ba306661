import { describe, expect, test } from 'vitest';
import { splitTarget } from '../../mock/handler/exchange.js';

describe('splitTarget', () => {
  test.each([
    ['/members/m1/passes', '/members/m1/passes', ''],
    ['/members/m1/passes?limit=2&limit=3', '/members/m1/passes', 'limit=2&limit=3'],
    ['/a?b=1#frag', '/a', 'b=1'],
    ['/a#frag?b=1', '/a', ''],
    ['/members/x/../m1/passes', '/members/x/../m1/passes', ''],
    ['http://host:8080/members/m1/passes?limit=2', '/members/m1/passes', 'limit=2'],
    ['http://host/members/%2E%2E/m1', '/members/%2E%2E/m1', ''],
    ['http://host', '/', ''],
    ['http://host?x=1', '/', 'x=1'],
    ['*', '*', ''],
    ['*?a=1', '*', 'a=1'],
    ['http://h;/__mock/health', ';/__mock/health', ''],
    ["http://h'/__mock/health", '%27/__mock/health', ''],
  ])('%s is path %s and query %j', (target, path, query) => {
    expect(splitTarget({ url: target })).toEqual([path, query]);
  });
});
