// Reads the values of a path template's parameters out of a request path.

/**
 * Returns the decoded values of `{name}` segments, or `{}` when the path does not fit the template.
 * @example extractPathParams('/members/{member_id}/passes', '/members/m1/passes') // { member_id: 'm1' }
 */
export function extractPathParams(template: string, path: string): Record<string, string> {
  const names = template.split('/');
  const values = path.split('/');
  const params: Record<string, string> = Object.create(null);
  if (names.length !== values.length) return params;
  names.forEach((segment, i) => {
    const value = values[i] ?? '';
    if (!segment.includes('{')) return;
    const whole = /^\{([^}]+)\}$/.exec(segment);
    if (whole?.[1]) {
      params[whole[1]] = decode(value);
      return;
    }
    // A segment mixing text and parameters, such as `{id}.json`.
    const keys: string[] = [];
    const pattern = segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, key: string) => {
      keys.push(key);
      return '(.*?)';
    });
    const match = new RegExp(`^${pattern}$`).exec(value);
    keys.forEach((key, k) => (params[key] = decode(match?.[k + 1] ?? '')));
  });
  return { ...params };
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
