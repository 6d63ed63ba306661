// Express, loaded the first time something asks for it: loading it (and the packages it pulls in) took about a
// tenth of a cold start, and neither the CLI nor startMock serves a request through it (see handle.ts).
import { createRequire } from 'node:module';
import type express from 'express';

let loaded: typeof express | undefined;

/**
 * Express's module, loaded on first use (synchronously: a CommonJS package); used for `mock.app` and the admin
 * API's JSON bodies, never on a contract request.
 * @example const app = loadExpress()();
 */
export function loadExpress(): typeof express {
  return (loaded ??= createRequire(import.meta.url)('express') as typeof express);
}
