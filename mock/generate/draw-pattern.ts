// Draws strings for the simple regular expressions ids are written with (`^crd_[0-9A-HJKMNP-TV-Z]{26}$`).

/** Draws a string from random numbers in [0, 1). */
export type PatternDraw = (random: () => number) => string;

interface Part {
  chars: string;
  min: number;
  /** The most repeats drawn before lengths are fitted. */
  max: number;
  /** The most repeats the quantifier allows: `Infinity` for an open one (`+`, `*`, `{2,}`). */
  limit: number;
}

const DIGITS = '0123456789';
const WORD = `ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz${DIGITS}_`;
const ALNUM = WORD.slice(0, -1);
/** How many more times an open quantifier (`+`, `*`, `{2,}`) repeats at most. */
const OPEN_EXTRA = 8;
/** The longest string drawn here; longer ones are left to json-schema-faker. */
const MAX_LENGTH = 4096;

/**
 * Compiles a pattern made of literals, classes (`[A-Z0-9_-]`, `\d`, `\w`, `.`) and quantifiers (`{n}`,
 * `{n,m}`, `?`, `*`, `+`), optionally anchored. Anything else (groups, alternation, negated classes,
 * lookarounds, characters outside printable ASCII, strings over 4096 characters, or what is not a valid
 * `u`-mode expression) gives `undefined`: json-schema-faker draws those. A draw matches by construction:
 * each part draws from exactly the characters its atom matches, as many times as its quantifier allows.
 * It is not tested against the expression per draw: with open quantifiers side by side, a regular
 * expression engine can take seconds to confirm even a matching string.
 * With `lengths` (a schema's `minLength` and `maxLength`), repeat counts are fitted so a draw has a length
 * within them too (`^[0-9a-f]+$` with both 40 gives 40 hex digits); it compiles only when the pattern can
 * make such a string.
 * @example compilePattern('^pas_[0-9A-Z]{4}$')!(Math.random) // 'pas_7QX2'
 */
export function compilePattern(
  pattern: string,
  { minLength = 0, maxLength = Infinity }: { minLength?: number; maxLength?: number } = {},
): PatternDraw | undefined {
  const parts = parse(pattern);
  if (!parts) return undefined;
  const shortest = parts.reduce((sum, part) => sum + part.min, 0);
  const longest = parts.reduce((sum, part) => sum + part.limit, 0);
  if (parts.reduce((sum, part) => sum + part.max, 0) > MAX_LENGTH) return undefined;
  // The lengths the schema allows and the pattern can make must meet, within what is drawn here.
  const low = Math.max(minLength, shortest);
  if (low > Math.min(maxLength, longest) || low > MAX_LENGTH) return undefined;
  const high = Math.min(maxLength, MAX_LENGTH);
  try {
    new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  // Drawn as character codes made into one string at the end: adding characters one by one made a string per
  // character, and an id was the largest part of a create's draw.
  const codes = parts.map(({ chars }) => Array.from(chars, (c) => c.charCodeAt(0)));
  // The codes go into an array of the drawn length, made once a draw: one grown by push was copied as it grew,
  // and spread into fromCharCode it was copied once more (about 0.7 KB of garbage an id, by the heap sampler).
  return (random) => {
    const times = parts.map(({ min, max }) => min + Math.floor(random() * (max - min + 1)));
    const length = fitLength(parts, times, low, high);
    const drawn = new Array<number>(length);
    let at = 0;
    for (let p = 0; p < codes.length; p++) {
      const from = codes[p]!;
      for (let i = times[p]!; i > 0; i--) drawn[at++] = from[Math.floor(random() * from.length)]!;
    }
    return String.fromCharCode.apply(null, drawn);
  };
}

/**
 * Brings drawn repeat counts within [low, high] characters: parts grow in turn up to what their quantifier
 * allows (an open one without end), or shrink in turn down to their minimum. compilePattern has checked
 * that such counts exist. Returns the length they make.
 */
function fitLength(parts: Part[], times: number[], low: number, high: number): number {
  let total = times.reduce((sum, n) => sum + n, 0);
  for (let p = 0; p < parts.length && total < low; p++) {
    const more = Math.min(low - total, parts[p]!.limit - times[p]!);
    times[p]! += more;
    total += more;
  }
  for (let p = parts.length - 1; p >= 0 && total > high; p--) {
    const less = Math.min(total - high, times[p]! - parts[p]!.min);
    times[p]! -= less;
    total -= less;
  }
  return total;
}

function parse(pattern: string): Part[] | undefined {
  const source = pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
  const parts: Part[] = [];
  let i = 0;
  while (i < source.length) {
    const atom = readAtom(source, i);
    if (!atom) return undefined;
    i = atom.end;
    const quantifier = readQuantifier(source, i);
    if (!quantifier) return undefined;
    i = quantifier.end;
    parts.push({ chars: atom.chars, ...quantifier });
  }
  return parts;
}

function readAtom(source: string, i: number): { chars: string; end: number } | undefined {
  const c = source[i]!;
  if (c === '[') return readClass(source, i + 1);
  if (c === '\\') {
    const escaped = readEscape(source[i + 1]);
    return escaped === undefined ? undefined : { chars: escaped, end: i + 2 };
  }
  if (c === '.') return { chars: ALNUM, end: i + 1 };
  // Only printable ASCII literals: a character outside it may be two UTF-16 units a quantifier would split.
  if ('()|^$*+?{}]'.includes(c) || c < ' ' || c > '~') return undefined;
  return { chars: c, end: i + 1 };
}

/** A class of ASCII characters and ranges; negated classes are left to json-schema-faker. */
function readClass(source: string, i: number): { chars: string; end: number } | undefined {
  if (source[i] === '^') return undefined;
  let chars = '';
  while (i < source.length && source[i] !== ']') {
    let first = source[i]!;
    if (first === '\\') {
      const escaped = readEscape(source[i + 1]);
      if (escaped === undefined) return undefined;
      i += 2;
      if (escaped.length > 1) {
        chars += escaped;
        continue;
      }
      first = escaped;
    } else i += 1;
    if (source[i] === '-' && source[i + 1] !== undefined && source[i + 1] !== ']') {
      const last = source[i + 1]!;
      if (last === '\\' || last === '[') return undefined;
      for (let code = first.charCodeAt(0); code <= last.charCodeAt(0); code++) chars += String.fromCharCode(code);
      i += 2;
    } else chars += first;
  }
  if (source[i] !== ']' || chars.length === 0 || /[^\x20-\x7e]/.test(chars)) return undefined;
  return { chars: [...new Set(chars)].join(''), end: i + 1 };
}

/** `\d`, `\w`, or an escaped punctuation character; other escapes (`\b`, `\s`, `\u…`) are not drawn here. */
function readEscape(c: string | undefined): string | undefined {
  if (c === 'd') return DIGITS;
  if (c === 'w') return WORD;
  return c !== undefined && /[^A-Za-z0-9]/.test(c) ? c : undefined;
}

function readQuantifier(
  source: string,
  i: number,
): { min: number; max: number; limit: number; end: number } | undefined {
  const c = source[i];
  const lazy = (end: number) => source[end] === '?' || source[end] === '+';
  if (c === '?' || c === '*' || c === '+') {
    if (lazy(i + 1)) return undefined;
    const min = c === '+' ? 1 : 0;
    return c === '?'
      ? { min, max: 1, limit: 1, end: i + 1 }
      : { min, max: min + OPEN_EXTRA, limit: Infinity, end: i + 1 };
  }
  if (c !== '{') return { min: 1, max: 1, limit: 1, end: i };
  const found = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
  if (!found) return undefined;
  const min = Number(found[1]);
  const open = found[3] === '';
  const max = found[2] === undefined ? min : open ? min + OPEN_EXTRA : Number(found[3]);
  const end = i + found[0].length;
  if (max < min || max > 1000 || lazy(end)) return undefined;
  return { min, max, limit: open ? Infinity : max, end };
}
