// Sends one request to the provider with a timeout and reads its answer as a client sees it.
import type { ReceivedResponse } from '../prism/check-response.js';
import { bytesAtMost } from '../lib/read-stream.js';

/** A request ready to send: `body` is serialized as JSON when given. */
export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** The answer, or why none came. */
export type Answer = { ok: true; response: ReceivedResponse } | { ok: false; error: string };

/**
 * Sends a request with global fetch; a network error or a timeout is an answer too, never a throw.
 * @example await sendRequest({ method: 'GET', url: 'http://127.0.0.1:4010/members/m1/passes', headers: {} }, 10_000)
 */
export async function sendRequest(request: OutgoingRequest, timeoutMs: number): Promise<Answer> {
  try {
    const res = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const headers = Object.fromEntries(res.headers);
    const text = await textAtMost(res, MAX_ANSWER);
    if (text === undefined)
      return {
        ok: false,
        error: `the answer is larger than ${MAX_ANSWER / MiB} MiB: it was not read whole, nor checked`,
      };
    return { ok: true, response: { status: res.status, headers, body: parseBody(text, headers['content-type']) } };
  } catch (error) {
    return { ok: false, error: describeFailure(error, timeoutMs) };
  }
}

const MiB = 1024 * 1024;
/** The largest answer read and checked: a provider that sends without end must not fill the memory. */
const MAX_ANSWER = 8 * MiB;

/** The body as UTF-8 text, or `undefined` once it passes `limit` bytes (the rest is not read). */
async function textAtMost(res: Response, limit: number): Promise<string | undefined> {
  if (!res.body) return '';
  const bytes = await bytesAtMost(res.body, limit);
  return bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (!/[/+]json\b/i.test(contentType ?? '')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const { name, message, cause } = error as Error & { cause?: Error & { code?: string } };
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  return `no answer: ${cause?.message ?? cause?.code ?? message}`;
}
