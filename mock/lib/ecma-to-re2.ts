// Rewrites a JSON Schema `pattern` (ECMA-262, `u` mode) into RE2's syntax with the same meaning, or says why it cannot.

/** A pattern RE2 has no equivalent for (a backreference, a lookahead where it cannot be split off). */
export class UnsupportedPattern extends Error {}

/** What ECMA-262's `\s` matches (its WhiteSpace and LineTerminator); RE2's `\s` is only `[\t\n\f\r ]`. */
const SPACE = '\\t-\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
/** Every code point but those of {@link SPACE}: `\S` inside a class, where a negated class cannot nest. */
const NOT_SPACE =
  '\\x00-\\x08\\x0e-\\x1f!-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}\\x{200b}-\\x{2027}\\x{202a}-\\x{202e}' +
  '\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}';
/** ECMA-262's `.` stops at every line terminator; RE2's only at `\n`. */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
/** Unicode property names ECMA-262 writes as `name=value` and RE2 as the value alone. */
const PROPERTY_PREFIX = /^(?:General_Category|gc|Script|sc)=/;

/**
 * The RE2 source of a pattern already known to compile as `new RegExp(pattern, 'u')`, matching the same strings:
 * `\s`, `\S` and `.` keep ECMA-262's meaning, escapes become RE2's (`\u00e9`, `\u{1F600}`, a surrogate pair,
 * `\cJ`), `(?<name>` becomes `(?P<name>`. Lookbehinds are kept (re2js runs them in linear time with its
 * `LOOKBEHINDS` flag); `lookbehinds` says whether there are any.
 * @throws UnsupportedPattern for a backreference or a lookahead, which RE2 cannot run
 * @example toRe2('^\\s?(?<id>\\d+)$').source // '^[\\t-\\r …]?(?P<id>\\d+)$'
 */
export function toRe2(pattern: string): { source: string; lookbehinds: boolean } {
  let out = '';
  let lookbehinds = false;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      const [text, end] = escape(pattern, i, false);
      out += text;
      i = end;
    } else if (c === '[') {
      const [text, end] = characterClass(pattern, i);
      out += text;
      i = end;
    } else if (c === '.') {
      out += DOT;
      i += 1;
    } else if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) {
      throw new UnsupportedPattern('a lookahead');
    } else if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) {
      lookbehinds = true;
      out += pattern.slice(i, i + 4);
      i += 4;
    } else if (pattern.startsWith('(?<', i)) {
      out += '(?P<';
      i += 3;
    } else {
      const point = pattern.codePointAt(i)!;
      out += String.fromCodePoint(point);
      i += point > 0xffff ? 2 : 1;
    }
  }
  return { source: out, lookbehinds };
}

/** A character class `[…]` from `start`, and where it ends. */
function characterClass(pattern: string, start: number): [string, number] {
  let i = start + 1;
  const negated = pattern[i] === '^';
  if (negated) i += 1;
  let body = '';
  while (pattern[i] !== ']') {
    if (pattern[i] === '\\') {
      const [text, end] = escape(pattern, i, true);
      body += text;
      i = end;
    } else {
      const point = pattern.codePointAt(i)!;
      // `[` is literal in ECMA-262's classes; in RE2's, `[:` may open a POSIX class.
      body += point === 0x5b ? '\\[' : String.fromCodePoint(point);
      i += point > 0xffff ? 2 : 1;
    }
  }
  const end = i + 1;
  // RE2 has no empty class: `[]` matches nothing and `[^]` anything.
  if (body === '') return [negated ? '[\\x00-\\x{10ffff}]' : '[^\\x00-\\x{10ffff}]', end];
  return [`[${negated ? '^' : ''}${body}]`, end];
}

/** The escape at `start` (`\…`) in RE2's syntax, and where it ends; `inClass` for one inside `[…]`. */
function escape(pattern: string, start: number, inClass: boolean): [string, number] {
  const c = pattern[start + 1]!;
  const next = start + 2;
  if (c === 's') return [inClass ? SPACE : `[${SPACE}]`, next];
  if (c === 'S') return [inClass ? NOT_SPACE : `[^${SPACE}]`, next];
  if (c === 'b' && inClass) return ['\\x08', next];
  if (c === 'k' || (c >= '1' && c <= '9')) throw new UnsupportedPattern('a backreference');
  if (c === '0') return ['\\x00', next];
  if (c === 'c') return [hex(pattern.charCodeAt(next) % 32), next + 1];
  if (c === 'x') return [hex(parseInt(pattern.slice(next, next + 2), 16)), next + 2];
  if (c === 'u') return unicodeEscape(pattern, start);
  if (c === 'p' || c === 'P') {
    const end = pattern.indexOf('}', next);
    const name = pattern.slice(next + 1, end).replace(PROPERTY_PREFIX, '');
    return [`\\${c}{${name}}`, end + 1];
  }
  if (c === '/') return ['/', next];
  // `\d \D \w \W \b \B \f \n \r \t \v`, and the punctuation u mode lets be escaped, mean the same in RE2.
  return [`\\${c}`, next];
}

/** `\uXXXX` (a surrogate pair of them as one code point) or `\u{X…}`. */
function unicodeEscape(pattern: string, start: number): [string, number] {
  if (pattern[start + 2] === '{') {
    const end = pattern.indexOf('}', start);
    return [hex(parseInt(pattern.slice(start + 3, end), 16)), end + 1];
  }
  const high = parseInt(pattern.slice(start + 2, start + 6), 16);
  const low = /^\\u([0-9a-fA-F]{4})/.exec(pattern.slice(start + 6))?.[1];
  const lowValue = low === undefined ? NaN : parseInt(low, 16);
  if (high >= 0xd800 && high <= 0xdbff && lowValue >= 0xdc00 && lowValue <= 0xdfff)
    return [hex((high - 0xd800) * 0x400 + (lowValue - 0xdc00) + 0x10000), start + 12];
  return [hex(high), start + 6];
}

function hex(point: number): string {
  return `\\x{${point.toString(16)}}`;
}

/**
 * A pattern that opens with lookaheads (`^(?=.*\d)(?!.*\s).{8,}$`, the usual password rule) as the patterns it
 * is the conjunction of: a string matches it when it matches every `^(?:X)` of `must`, none of `mustNot`, and
 * `rest`. `undefined` when the pattern is not of that shape (no lookahead right after its `^`, or a `|` at its
 * top level, which would make `^` belong to one branch only).
 * @example leadingLookaheads('^(?=.*\\d).{8,}$') // { must: ['^(?:.*\\d)'], mustNot: [], rest: '^.{8,}$' }
 */
export function leadingLookaheads(pattern: string): { must: string[]; mustNot: string[]; rest: string } | undefined {
  if (!pattern.startsWith('^(?=') && !pattern.startsWith('^(?!')) return undefined;
  const must: string[] = [];
  const mustNot: string[] = [];
  let i = 1;
  while (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) {
    const end = groupEnd(pattern, i);
    (pattern[i + 2] === '=' ? must : mustNot).push(`^(?:${pattern.slice(i + 3, end)})`);
    i = end + 1;
  }
  const rest = `^${pattern.slice(i)}`;
  return topLevelBar(rest) ? undefined : { must, mustNot, rest };
}

/** Where the group opened at `open` closes (escapes and classes skipped). */
function groupEnd(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i += 1;
    else if (c === '[') i = classEnd(pattern, i);
    else if (c === '(') depth += 1;
    else if (c === ')' && --depth === 0) return i;
  }
  return pattern.length;
}

function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i;
}

function topLevelBar(pattern: string): boolean {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i += 1;
    else if (c === '[') i = classEnd(pattern, i);
    else if (c === '(') depth += 1;
    else if (c === ')') depth -= 1;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}
