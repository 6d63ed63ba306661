// The request's Content-Type against the media types the operation's request body documents.
import type { Violation } from './problems.js';

/**
 * A body must come with a Content-Type that the contract lists for the operation (exactly, or through a
 * wildcard the contract itself uses, such as `application/*`). `undefined` when it does, or when the
 * contract lists none.
 * @example checkContentType(['application/json'], 'application/problem+json') // a violation
 */
export function checkContentType(listed: readonly string[], contentType: string | undefined): Violation | undefined {
  if (listed.length === 0) return undefined;
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  const types = listed.join(', ');
  if (!essence)
    return {
      location: 'header',
      pointer: '/content-type',
      message: `A body needs a Content-Type; send one of: ${types}.`,
    };
  const [type] = essence.split('/');
  const fits = listed.some((m) => m === essence || m === '*/*' || m === `${type}/*`);
  if (fits) return undefined;
  return {
    location: 'header',
    pointer: '/content-type',
    message: `Content-Type "${essence}" is not accepted; send one of: ${types}.`,
  };
}
