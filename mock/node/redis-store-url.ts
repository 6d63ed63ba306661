// What a `--store redis://…` URL says (the address, this mock's key prefix, the log's and the queue's bounds),
// and the URL as messages show it: its password never printed.

/**
 * Entries the log may hold before the next section keeps a snapshot of everything and trims the log before it
 * (`?snapshotEvery=` in the URL). @default 1000
 */
const SNAPSHOT_EVERY = 1000;

/** Requests a replica keeps waiting for Redis at most (`?maxQueued=`); past them, 503 at once. @default 1024 */
const MAX_QUEUED = 1024;

/** A `--store` URL, read. */
export interface StoreUrl {
  address: string;
  prefix: string;
  snapshotEvery: number;
  maxQueued: number;
}

/**
 * The Redis address of a `--store` URL, and the prefix of this mock's keys (`?prefix=`, `membership-mock:`).
 * @example readStoreUrl('redis://localhost:6379/0?prefix=demo:').prefix // 'demo:'
 */
export function readStoreUrl(url: string): StoreUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--store takes redis://host:port/db, not ${JSON.stringify(redactUrl(url))}.`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new Error(`--store takes redis://host:port/db, not ${JSON.stringify(redactUrl(url))}.`);
  const prefix = parsed.searchParams.get('prefix') ?? 'membership-mock:';
  if (prefix === '') throw new Error('--store: prefix must not be empty (leave it out for membership-mock:).');
  const snapshotEvery = wholeNumber(parsed.searchParams.get('snapshotEvery'), SNAPSHOT_EVERY, 'snapshotEvery');
  const maxQueued = wholeNumber(parsed.searchParams.get('maxQueued'), MAX_QUEUED, 'maxQueued');
  parsed.search = '';
  return { address: parsed.toString(), prefix, snapshotEvery, maxQueued };
}

function wholeNumber(given: string | null, byDefault: number, name: string): number {
  if (given === null) return byDefault;
  const value = Number(given);
  if (!/^\d+$/.test(given) || value < 1)
    throw new Error(`--store: ${name} must be a whole number from 1, not ${JSON.stringify(given)}.`);
  return value;
}

/**
 * The URL with its user and password replaced by `***`, for messages, logs and health.
 * @example redactUrl('redis://app:s3cret@redis:6379/0') // 'redis://***@redis:6379/0'
 */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, '$1***@');
}

/** A message with the URL's user and password (as given, and as the URL encodes them) taken out. */
export function redactSecrets(message: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return message.split(url).join(redactUrl(url));
  }
  let redacted = message.split(url).join(redactUrl(url));
  for (const secret of [parsed.password, decode(parsed.password)])
    if (secret.length >= 3) redacted = redacted.split(secret).join('***');
  return redacted;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
