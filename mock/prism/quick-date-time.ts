// Prism's `date-time` format, with the form nearly every date-time has (`2025-01-31T08:00:00Z`, `.123Z`) read
// at once: Prism's own check splits the text and runs four patterns over it, the largest cost of checking a
// record such as a pass (each has two or three), hundreds of thousands of times when fixtures are loaded.

/**
 * Prism's date-time check, answering the UTC form `YYYY-MM-DDTHH:MM:SS[.fraction]Z` itself as Prism's would
 * (a real day of the month, 00:00:00 to 23:59:59, or the leap second 23:59:60), and handing anything else to it.
 * @example quickDateTime(prismDateTime)('2024-02-30T00:00:00Z') // false, as Prism says
 */
export function quickDateTime(prismDateTime: (value: string) => boolean): (value: string) => boolean {
  return (value) => utcVerdict(value) ?? prismDateTime(value);
}

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The verdict on a date-time in the UTC form, or `undefined` when it is in another form (or not a string). */
function utcVerdict(value: string): boolean | undefined {
  if (typeof value !== 'string') return undefined;
  const n = value.length;
  if (n < 20 || value.charCodeAt(n - 1) !== 0x5a /* Z */) return undefined;
  if (value[4] !== '-' || value[7] !== '-' || value[10] !== 'T' || value[13] !== ':' || value[16] !== ':')
    return undefined;
  if (n > 20 && (value[19] !== '.' || n === 21 || !allDigits(value, 20, n - 1))) return undefined;
  const year = digitsOf(value, 0, 4);
  const month = digitsOf(value, 5, 7);
  const day = digitsOf(value, 8, 10);
  const hour = digitsOf(value, 11, 13);
  const minute = digitsOf(value, 14, 16);
  const second = digitsOf(value, 17, 19);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const dateFits = month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS[month]!);
  const timeFits = (hour <= 23 && minute <= 59 && second <= 59) || (hour === 23 && minute === 59 && second === 60);
  return dateFits && timeFits;
}

/** The number the ASCII digits from `start` to `end` write (a few), or -1 when one is not a digit. */
function digitsOf(value: string, start: number, end: number): number {
  let number = 0;
  for (let i = start; i < end; i++) {
    const digit = value.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    number = number * 10 + digit;
  }
  return number;
}

function allDigits(value: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}
