// The parsed request body as the rest of the pipeline sees it.

/**
 * The body the parsers left on the request: JSON values and form fields as parsed, raw bytes as UTF-8 text,
 * and `undefined` when nothing was sent (parsers leave an empty Buffer for `Content-Length: 0`).
 */
export function requestBody(body: unknown): unknown {
  if (Buffer.isBuffer(body)) return body.length === 0 ? undefined : body.toString('utf8');
  if (typeof body === 'string' && body.length === 0) return undefined;
  return body;
}
