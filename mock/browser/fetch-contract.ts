// A contract the browser fetches: a URL (absolute, or relative to the page) whose answer is an OpenAPI document
// in JSON or YAML, every schema it refers to inside it (no other document is read), read up to a size limit.
import { ContractError } from '../contract/contract-error.js';
import { describe, parseDocument } from '../contract/parse-document.js';
import { bytesAtMost } from '../lib/read-stream.js';

/** The largest contract fetched: bigger ones are refused before they are parsed. */
export const CONTRACT_LIMIT = 32 * 1024 * 1024;

/**
 * The parsed document at `url`.
 * @throws ContractError when it cannot be fetched, is too large, or is not YAML or JSON
 * @example const document = await fetchContract('/openapi.yaml');
 */
export async function fetchContract(url: string | URL, limit = CONTRACT_LIMIT): Promise<unknown> {
  const what = `the contract ${String(url)}`;
  let text: string;
  try {
    const response = await fetch(url);
    const refused = !response.ok
      ? `HTTP ${response.status} ${response.statusText}`.trim()
      : isHtml(response)
        ? // A dev server (Vite's, for one) answers a file it does not have with the app's index.html.
          'the server answered an HTML page: is the file in the folder it serves (public/)?'
        : undefined;
    if (refused) {
      void response.body?.cancel().catch(() => undefined);
      throw new Error(refused);
    }
    text = await readText(response, limit);
  } catch (error) {
    throw new ContractError(`Cannot read ${what}: ${describe(error)}`);
  }
  return parseDocument(text, what);
}

function isHtml(response: Response): boolean {
  return /^\s*text\/html\b/i.test(response.headers.get('content-type') ?? '');
}

/** The body as UTF-8 text, refused once past `limit` bytes. */
async function readText(response: Response, limit: number): Promise<string> {
  if (Number(response.headers.get('content-length') ?? 0) > limit) throw tooLarge(limit);
  if (!response.body) return '';
  const bytes = await bytesAtMost(response.body, limit);
  if (bytes === undefined) throw tooLarge(limit);
  return new TextDecoder().decode(bytes);
}

function tooLarge(limit: number): Error {
  return new Error(`it is larger than ${limit} bytes`);
}
