// Tells the contract patterns a backtracking engine runs in bounded time whatever the value: JavaScript's own
// RegExp runs those, the fastest engine and the one whose meaning the contract's patterns have.

/** How many ways a bounded pattern may try to match at most (the product of its quantifiers' ranges). */
const MAX_PATHS = 1024;
/** The same, before an unbounded last atom: each way then costs twice the value's length at most. */
const MAX_PATHS_BEFORE_TAIL = 16;

/**
 * Whether `pattern` (flags `u`) is anchored at the start and made of single-character atoms (literals, escapes,
 * classes, `.`) and assertions only, each atom repeated a bounded number of times (`?`, `{n}`, `{n,m}`), with at
 * most {@link MAX_PATHS} ways to match in all: no group, no alternation. A backtracking engine tries at most that
 * many ways, each as long as the pattern's longest match, from the first character only, so no value can make it
 * slow. The last atom alone may be unbounded (`*`, `+`, `{n,}`), followed by `$` or nothing, when what comes
 * before it has at most {@link MAX_PATHS_BEFORE_TAIL} ways: each way then takes what the atom matches and gives
 * it back one character at a time, twice the value's length. `pattern` must be one `new RegExp(pattern, 'u')`
 * accepts.
 * @example isBoundedPattern('^pas_[0-9A-HJKMNP-TV-Z]{26}$') // true
 * @example isBoundedPattern('^[A-Za-z0-9_-]+$') // true: the unbounded atom ends the pattern
 * @example isBoundedPattern('^[a-z]+-[a-z]+$') // false: an unbounded atom, then more
 */
export function isBoundedPattern(pattern: string): boolean {
  if (!pattern.startsWith('^')) return false;
  let paths = 1;
  let i = 1;
  let atom = false;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '(' || c === ')' || c === '|') return false;
    if (c === '*' || c === '+' || (c === '{' && rangeOf(pattern, i) === undefined)) {
      if (!atom || paths > MAX_PATHS_BEFORE_TAIL) return false;
      i = c === '{' ? pattern.indexOf('}', i) + 1 : i + 1;
      if (pattern[i] === '?') i++;
      return i === pattern.length || (i === pattern.length - 1 && pattern[i] === '$');
    }
    if (c === '?' || c === '{') {
      // A quantifier (the pattern is valid, so one always follows an atom here).
      if (!atom) return false;
      paths *= c === '?' ? 2 : rangeOf(pattern, i)!;
      if (paths > MAX_PATHS) return false;
      i = c === '?' ? i + 1 : pattern.indexOf('}', i) + 1;
      if (pattern[i] === '?') i++; // lazy: the same ways, tried in another order
      atom = false;
      continue;
    }
    if (c === '^' || c === '$') {
      atom = false;
      i++;
    } else if (c === '[') {
      const end = classEnd(pattern, i);
      if (end === undefined) return false;
      atom = true;
      i = end;
    } else if (c === '\\') {
      const end = escapeEnd(pattern, i);
      if (end === undefined) return false;
      // `\b` and `\B` are assertions: no quantifier may follow them.
      atom = pattern[i + 1] !== 'b' && pattern[i + 1] !== 'B';
      i = end;
    } else {
      atom = true;
      i++;
    }
  }
  return true;
}

/** The number of counts `{n}` or `{n,m}` at `start` allows; `undefined` for `{n,}`, which has no bound. */
function rangeOf(pattern: string, start: number): number | undefined {
  const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(start, start + 24));
  if (!match) return undefined;
  if (match[2] === undefined) return 1;
  if (match[3] === '') return undefined;
  return Number(match[3]) - Number(match[1]) + 1;
}

/** Where the class opened at `start` ends (after its `]`). */
function classEnd(pattern: string, start: number): number | undefined {
  let i = start + 1;
  while (i < pattern.length) {
    if (pattern[i] === ']') return i + 1;
    if (pattern[i] === '\\') {
      const end = escapeEnd(pattern, i);
      if (end === undefined) return undefined;
      i = end;
    } else i++;
  }
  return undefined;
}

/**
 * Where the escape at `start` ends; `undefined` for a backreference (`\1`, `\k<name>`), which makes a match
 * depend on what a group took.
 */
function escapeEnd(pattern: string, start: number): number | undefined {
  const c = pattern[start + 1];
  if (c === undefined || c === 'k' || (c >= '1' && c <= '9')) return undefined;
  if (c === 'u' && pattern[start + 2] === '{') return pattern.indexOf('}', start) + 1;
  if (c === 'u') return start + 6;
  if (c === 'x') return start + 4;
  if (c === 'c') return start + 3;
  if (c === 'p' || c === 'P') return pattern.indexOf('}', start) + 1;
  return start + 2;
}
