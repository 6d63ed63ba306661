// bytesAtMost: a stream read whole up to a size, and cancelled, unread, past it.
import { describe, expect, test } from 'vitest';
import { bytesAtMost } from '../../mock/lib/read-stream.js';

/** A stream of the given chunks that says whether it was cancelled. */
function streamOf(chunks: number[][]): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next === chunks.length) return controller.close();
      controller.enqueue(new Uint8Array(chunks[next++]!));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

describe('bytesAtMost', () => {
  test('gives every byte, in order, of a stream as long as the limit', async () => {
    const { stream, cancelled } = streamOf([[1, 2], [3], [4, 5]]);
    expect(await bytesAtMost(stream, 5)).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
    expect(cancelled()).toBe(false);
  });

  test('gives undefined and cancels the stream once it passes the limit', async () => {
    const { stream, cancelled } = streamOf([[1, 2], [3, 4], [5], [6]]);
    expect(await bytesAtMost(stream, 3)).toBeUndefined();
    expect(cancelled()).toBe(true);
  });

  test('gives no bytes for an empty stream', async () => {
    expect(await bytesAtMost(streamOf([]).stream, 0)).toEqual(new Uint8Array());
  });
});
