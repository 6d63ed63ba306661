// A small, stable string hash (FNV-1a, 32 bits) used to derive seeds.

/** Hashes a string to an unsigned 32-bit integer; the same text always gives the same number. */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
