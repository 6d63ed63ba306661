// Formats json-schema-faker 0.6.3 draws invalid values for, as validators (ajv-formats) read them.
import { toBase64 } from '../lib/bytes.js';

/** Random numbers as json-schema-faker hands them to a format. */
interface Random {
  next(): number;
}

/** Draws a string of a format from json-schema-faker's seeded random numbers. */
export type Formats = Record<string, (random: Random) => string>;

const int = (random: Random, below: number) => Math.floor(random.next() * below);

/**
 * `byte`: base64 of 3 to 24 drawn bytes (json-schema-faker draws any word, which is seldom base64);
 * `duration`: days, hours and minutes (it draws `PT0D` or `P0DT`, which ISO 8601 does not allow).
 * @example FORMATS.byte!({ next: Math.random }) // 'q83vEjRWeJA='
 */
export const FORMATS: Formats = {
  byte: (random) => {
    const bytes = new Uint8Array(3 + int(random, 22));
    for (let i = 0; i < bytes.length; i++) bytes[i] = int(random, 256);
    return toBase64(bytes);
  },
  duration: (random) => `P${int(random, 30)}DT${int(random, 24)}H${int(random, 60)}M`,
};
