// The request's Content-Type against the media types the operation's request body documents.
import type { Violation } from './problems.js';
import { mediaTypeOf } from './body-kind.js';

/** The request's `content-type` as sent, `undefined` when it sent none (or, against HTTP, several). */
export function sentContentType(headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const type = headers['content-type'];
  return typeof type === 'string' ? type : undefined;
}

/**
 * A body must come with a Content-Type that the contract lists for the operation (exactly, or through a
 * wildcard the contract itself uses, such as `application/*`). `undefined` when it does, or when the
 * contract lists none.
 * @example checkContentType(['application/json'], 'application/problem+json') // a violation
 */
export function checkContentType(listed: readonly string[], contentType: string | undefined): Violation | undefined {
  if (listed.length === 0) return undefined;
  const essence = mediaTypeOf(contentType);
  if (!essence)
    return {
      location: 'header',
      pointer: '/content-type',
      message: `A body needs a Content-Type; send one of: ${listed.join(', ')}.`,
    };
  // `application/*` takes any subtype of application, not `application` alone (no media type).
  const slash = essence.indexOf('/');
  const wildcard = slash > 0 ? `${essence.slice(0, slash)}/*` : undefined;
  const fits = listed.some((m) => m === essence || m === '*/*' || m === wildcard);
  if (fits) return undefined;
  return {
    location: 'header',
    pointer: '/content-type',
    message: `Content-Type "${essence}" is not accepted; send one of: ${listed.join(', ')}.`,
  };
}
