import { describe, expect, test } from 'vitest';
import { countedUUID, drawnStart, requestIdFrom } from '../../mock/http/request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  test('a new id is a version 4 UUID, one more than the last, sharing its drawn start', () => {
    const first = countedUUID();
    const second = countedUUID();
    expect(first).toMatch(UUID_V4);
    expect(second).toMatch(UUID_V4);
    expect(second.slice(0, 24)).toBe(first.slice(0, 24));
    expect(parseInt(second.slice(24), 16)).toBe(parseInt(first.slice(24), 16) + 1);
  });

  test('ten thousand new ids, given no header, count up one by one from a start drawn once', () => {
    const ids = Array.from({ length: 10_000 }, () => requestIdFrom(undefined));
    const start = ids[0]!.slice(0, 24);
    const counts = ids.map((id) => parseInt(id.slice(24), 16));
    expect(ids.every((id) => UUID_V4.test(id) && id.startsWith(start))).toBe(true);
    expect(counts.every((count, i) => count === counts[0]! + i)).toBe(true);
  });

  test('the caller’s sensible X-Request-Id is kept, any other replaced by a new UUID', () => {
    expect(requestIdFrom('trace-42.a:b')).toBe('trace-42.a:b');
    expect(requestIdFrom('has space')).toMatch(UUID_V4);
    expect(requestIdFrom('x'.repeat(129))).toMatch(UUID_V4);
    expect(requestIdFrom('x'.repeat(128))).toBe('x'.repeat(128));
    expect(requestIdFrom(['a', 'b'])).toMatch(UUID_V4);
    expect(requestIdFrom('')).toMatch(UUID_V4);
  });

  test('the drawn start needs only getRandomValues (a page on plain HTTP has no randomUUID), version and variant set', () => {
    const ones = {
      getRandomValues: <T extends ArrayBufferView | null>(array: T) => (
        new Uint8Array(array!.buffer).fill(0xff),
        array
      ),
    };
    const zeros = { getRandomValues: (array: Uint8Array) => array };
    expect(drawnStart(ones)).toBe('ffffffff-ffff-4fff-bfff-');
    expect(drawnStart(zeros)).toBe('00000000-0000-4000-8000-');
    expect(`${drawnStart(globalThis.crypto)}000000000001`).toMatch(UUID_V4);
  });
});
