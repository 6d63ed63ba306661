// The request's Content-Type against the media types the operation's request body documents.
import type { IHttpOperation } from '@stoplight/types';
import type { Violation } from '../problems/problems.js';

/**
 * A body must come with a Content-Type that the contract lists for the operation (exactly, or through a
 * wildcard the contract itself uses, such as `application/*`). `undefined` when it does.
 * @example checkContentType(spec, 'application/problem+json') // a violation: only application/json is listed
 */
export function checkContentType(spec: IHttpOperation, contentType: string | undefined): Violation | undefined {
  const listed = (spec.request?.body?.contents ?? []).map((c) => c.mediaType.toLowerCase());
  if (listed.length === 0) return undefined;
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!essence)
    return {
      location: 'header',
      pointer: '/content-type',
      message: `A body needs a Content-Type; send one of: ${listed.join(', ')}.`,
    };
  const [type] = essence.split('/');
  const fits = listed.some((m) => m === essence || m === '*/*' || m === `${type}/*`);
  return fits
    ? undefined
    : {
        location: 'header',
        pointer: '/content-type',
        message: `Content-Type "${essence}" is not accepted; send one of: ${listed.join(', ')}.`,
      };
}
