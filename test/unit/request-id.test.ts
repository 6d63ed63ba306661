import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { countedUUID, newRequestId } from '../../mock/handler/request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const requestWith = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('request ids', () => {
  test('a new id is a version 4 UUID, one more than the last, sharing its drawn start', () => {
    const first = countedUUID();
    const second = countedUUID();
    expect(first).toMatch(UUID_V4);
    expect(second).toMatch(UUID_V4);
    expect(second.slice(0, 24)).toBe(first.slice(0, 24));
    expect(parseInt(second.slice(24), 16)).toBe(parseInt(first.slice(24), 16) + 1);
  });

  test('ten thousand new ids are all different', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newRequestId(requestWith({}))));
    expect(ids.size).toBe(10_000);
  });

  test('the caller’s sensible X-Request-Id is kept, any other replaced by a new UUID', () => {
    expect(newRequestId(requestWith({ 'x-request-id': 'trace-42.a:b' }))).toBe('trace-42.a:b');
    expect(newRequestId(requestWith({ 'x-request-id': 'has space' }))).toMatch(UUID_V4);
    expect(newRequestId(requestWith({ 'x-request-id': 'x'.repeat(129) }))).toMatch(UUID_V4);
  });
});
