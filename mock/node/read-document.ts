// Reads the documents of a contract (the contract itself, and the files it refers to) from paths and URLs.
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContractError } from '../contract/contract-error.js';
import type { DocumentSource } from '../contract/document-source.js';
import { describe, isUrl, parseDocument } from '../contract/parse-document.js';

export { isUrl };

/** How long a document on the network may take to arrive. */
const FETCH_TIMEOUT_MS = 30_000;

/**
 * The parsed document at a path or URL.
 * @param what how errors name it: `the contract X`, `the file X (referred to by …)`
 * @throws ContractError when it cannot be read or is not YAML or JSON
 */
export async function readDocument(location: string, what: string): Promise<unknown> {
  return parseDocument(await readText(location, what), what);
}

async function readText(location: string, what: string): Promise<string> {
  try {
    if (!isUrl(location)) return await readFile(location, 'utf8');
    const response = await fetch(location, {
      headers: { 'user-agent': 'membership-mock' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
    return await response.text();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : describe(error);
    throw new ContractError(`Cannot read ${what}: ${reason}`);
  }
}

/**
 * Documents from the file system and the network: a reference's address is a path relative to the document it
 * is in (or a `file:` URL, or an http(s) URL); a file is kept under its path from the contract's folder.
 */
export const fileDocuments: DocumentSource = {
  read: readDocument,
  locate(address, base) {
    if (isUrl(address) || isUrl(base)) return new URL(address, isUrl(base) ? base : undefined).href.replace(/#.*$/, '');
    if (address.startsWith('file:')) return fileURLToPath(address);
    return resolve(dirname(base), safeDecodeUri(address));
  },
  keyOf: (location, root) => (isUrl(location) ? location : relative(dirname(root), location)),
};

function safeDecodeUri(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}
