// A body stream read whole up to a size: what a fetched answer may hold before it is refused.

/**
 * The bytes of `stream`, or `undefined` once they pass `limit` bytes (the stream is then cancelled, the rest
 * unread): a sender that sends without end fills no memory.
 * @example const bytes = await bytesAtMost(response.body, 8 * 1024 * 1024);
 */
export async function bytesAtMost(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      void reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
