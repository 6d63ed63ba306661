// The inspector page and its assets, served from mock/inspector/assets (dist/mock/inspector/assets once built):
// files of that one folder only, read once per mock, with types, no caching without revalidation, and a strict CSP.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Exchange } from '../handler/exchange.js';
import { writeAnswer } from '../handler/send-reply.js';
import { unmatchedMethod, unmatchedPath } from '../http/unmatched.js';

/**
 * Where the page's files are, beside this module's folder in the source tree and in dist alike. A path, not a
 * `new URL()`: in a jsdom test environment the global URL is jsdom's, which Node's fileURLToPath refuses.
 */
export const ASSETS = join(dirname(fileURLToPath(import.meta.url)), '../inspector/assets/');

/** The path below which the assets are served. */
export const INSPECTOR = '/__mock/inspector/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The page may load its own files and talk to its own origin, nothing else; no inline script, no framing. */
const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/** A name of a file in the folder: no separator, no leading dot, a type it serves. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The inspector's files of one mock. */
export interface InspectorFiles {
  /** Answers a request below {@link INSPECTOR}: the file, 404, or 405 for a method other than GET and HEAD. */
  serveAsset(ex: Exchange): void;
  /** Answers with the page (`index.html`); `false` when there is none to answer with (the folder is missing). */
  servePage(ex: Exchange): boolean;
}

/**
 * Serves the files of `folder`. Its listing is read on first use, each file on its first request, then kept.
 * @example const files = inspectorFiles(); files.serveAsset(ex) // GET /__mock/inspector/app.js
 */
export function inspectorFiles(folder = ASSETS): InspectorFiles {
  let names: Set<string> | undefined;
  const read = new Map<string, Buffer>();
  const listing = () => (names ??= listFiles(folder));
  const send = (ex: Exchange, name: string) => {
    let data = read.get(name);
    if (data === undefined) {
      data = readFileSync(`${folder}${name}`);
      read.set(name, data);
    }
    const type = TYPES[extname(name)]!;
    const headers = [...ex.headers, 'Content-Type', type, 'Content-Length', String(data.length)];
    headers.push('Cache-Control', 'no-cache', 'X-Content-Type-Options', 'nosniff');
    if (type.startsWith('text/html')) headers.push('Content-Security-Policy', CSP, 'Vary', 'Accept');
    ex.res.writeHead(200, headers);
    ex.res.end(data);
    ex.log?.(ex, 200);
  };
  return {
    serveAsset(ex) {
      if (ex.method !== 'GET' && ex.method !== 'HEAD')
        return writeAnswer(ex, unmatchedMethod(ex, 'the inspector', ['GET', 'HEAD']));
      const name = nameOf(ex.path.slice(INSPECTOR.length));
      if (name === undefined || !listing().has(name)) {
        const files = [...listing()].sort().map((file) => `GET ${INSPECTOR}${file}`);
        const note = files.length ? '' : ' (the package was built without its files)';
        return writeAnswer(ex, unmatchedPath(ex, 'the inspector', files, note));
      }
      send(ex, name);
    },
    servePage(ex) {
      if (!listing().has('index.html')) return false;
      send(ex, 'index.html');
      return true;
    },
  };
}

/** The file a path segment names, decoded once; `undefined` for anything that is not a plain file name. */
function nameOf(segment: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return FILE_NAME.test(name) && Object.hasOwn(TYPES, extname(name)) ? name : undefined;
}

/** The files of the folder the inspector may serve: plain names of the types it knows, no folders. */
function listFiles(folder: string): Set<string> {
  try {
    const entries = readdirSync(folder, { withFileTypes: true });
    return new Set(entries.filter((e) => e.isFile() && nameOf(e.name) === e.name).map((e) => e.name));
  } catch {
    return new Set();
  }
}
