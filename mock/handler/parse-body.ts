// Reads the body of a request whose operation takes one, within the size limit; other bodies are ignored.
import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { matchOf } from './match-route.js';

const MAX_DEPTH = 64;

/** The body parsers, run in turn, only for operations with a request body. */
export function parseBody(limit: number): RequestHandler {
  const parsers: RequestHandler[] = [
    express.json({ limit, strict: false, type: ['application/json', 'application/*+json'], verify: requireUtf8 }),
    express.urlencoded({ limit, extended: false, verify: requireUtf8 }),
    express.text({ limit, type: 'text/*', verify: requireUtf8 }),
    express.raw({ limit, type: () => true }),
  ];
  return (req, res, next) => {
    if (!matchOf(res)?.operation.spec.request?.body) return next();
    const run = (i: number): void => {
      if (i === parsers.length || req.body !== undefined) return next();
      parsers[i]!(req, res, (error?: unknown) => (error ? next(error) : run(i + 1)));
    };
    run(0);
  };
}

/** Text bodies must be valid UTF-8: decoding would otherwise turn bad bytes into U+FFFD silently. */
function requireUtf8(_req: unknown, _res: unknown, buffer: Buffer, encoding: string): void {
  if (/^utf-?8$/i.test(encoding) && !isUtf8(buffer)) {
    throw Object.assign(new Error('The body is not valid UTF-8'), { status: 400, type: 'encoding.invalid' });
  }
}

/** Whether a JSON value nests deeper than the mock follows (deep bodies could exhaust the stack later). */
export function nestsTooDeep(value: unknown, limit = MAX_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

export { MAX_DEPTH };
