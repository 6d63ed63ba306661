// Reads the values of a path template's parameters out of a request path.

/** Reads the parameters of one template out of request paths. */
export type PathParamReader = (path: string) => Record<string, string>;

/**
 * Compiles a template once into a reader: whole-segment parameters (`{id}`) are read by position, a
 * segment mixing text and parameters (`{id}.json`) with a pattern made once. Values are percent-decoded
 * (left as they are when malformed); a path that does not fit the template gives `{}`.
 * @example compilePathParams('/members/{member_id}/passes')('/members/m1/passes') // { member_id: 'm1' }
 */
export function compilePathParams(template: string): PathParamReader {
  const segments = template.split('/');
  const readers: [index: number, read: (value: string, params: Record<string, string>) => void][] = [];
  segments.forEach((segment, index) => {
    if (!segment.includes('{')) return;
    const whole = /^\{([^}]+)\}$/.exec(segment)?.[1];
    if (whole) return void readers.push([index, (value, params) => (params[whole] = decode(value))]);
    const keys: string[] = [];
    const source = segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, key: string) => {
      keys.push(key);
      return '(.*?)';
    });
    const pattern = new RegExp(`^${source}$`);
    readers.push([
      index,
      (value, params) => keys.forEach((key, k) => (params[key] = decode(pattern.exec(value)?.[k + 1] ?? ''))),
    ]);
  });
  return (path) => {
    const values = path.split('/');
    const params: Record<string, string> = Object.create(null);
    if (values.length !== segments.length) return { ...params };
    for (const [index, read] of readers) read(values[index] ?? '', params);
    return { ...params };
  };
}

/** A path segment percent-decoded, or as it is when malformed. */
export function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
