// Where a text stops being JSON. JSON.parse says why, but not always where (V8: `Unexpected token '}', "{"a":}" is
// not valid JSON`), and a person fixing a file by hand needs the line and the column.

/** One token of JSON after any white space: a bracket, a colon, a comma, a string, or a number or literal. */
const TOKEN =
  /[ \t\n\r]*(?:([{[])|([}\]])|(:)|(,)|("(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[\da-fA-F]{4}))*")|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null))/y;
const SPACE = /[ \t\n\r]*/y;

/** What may come next. */
type Expect = 'value' | 'value or ]' | 'key' | 'key or }' | ':' | ', or close' | 'end';

/**
 * The offset of the first character at which `text` cannot be JSON (its length when it ends too soon), or
 * `undefined` when it is JSON. Iterative, so a deep nesting cannot overflow the stack.
 * @example jsonErrorOffset('{"a":}') // 5
 */
export function jsonErrorOffset(text: string): number | undefined {
  const open: string[] = [];
  const after = (): Expect => (open.length ? ', or close' : 'end');
  let expect: Expect = 'value';
  let at = 0;
  for (;;) {
    SPACE.lastIndex = at;
    SPACE.test(text);
    const start = SPACE.lastIndex;
    if (start === text.length) return expect === 'end' ? undefined : start;
    TOKEN.lastIndex = at;
    const token = TOKEN.exec(text);
    if (!token || expect === 'end') return start;
    const [, opening, closing, colon, comma, string, scalar] = token;
    at = TOKEN.lastIndex;
    const closes = closing !== undefined && closing === (open.at(-1) === '{' ? '}' : ']');
    if ((expect === 'value' || expect === 'value or ]') && (string ?? scalar) !== undefined) expect = after();
    else if ((expect === 'value' || expect === 'value or ]') && opening !== undefined) {
      open.push(opening);
      expect = opening === '{' ? 'key or }' : 'value or ]';
    } else if ((expect === 'key' || expect === 'key or }') && string !== undefined) expect = ':';
    else if (expect === ':' && colon !== undefined) expect = 'value';
    else if (expect === ', or close' && comma !== undefined) expect = open.at(-1) === '{' ? 'key' : 'value';
    else if ((expect === ', or close' || expect === 'value or ]' || expect === 'key or }') && closes) {
      open.pop();
      expect = after();
    } else return start;
  }
}

/**
 * The line and column (both from 1) of an offset in a text.
 * @example lineAndColumn('{\n  "a" 1}', 8) // { line: 2, column: 7 }
 */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}
