// JSON Pointers as `$ref` fragments (`#/components/schemas/Pet`): read, written, and followed in a document.

/**
 * The segments of a `#/…` fragment (`#` alone is the document), `undefined` when it is not a JSON Pointer.
 * Segments are percent-decoded, then `~1` and `~0` unescaped, as Prism's resolver reads them.
 * @example parsePointer('#/paths/~1pets/get') // ['paths', '/pets', 'get']
 */
export function parsePointer(fragment: string): string[] | undefined {
  if (fragment === '#' || fragment === '') return [];
  if (!fragment.startsWith('#/')) return undefined;
  return fragment
    .slice(2)
    .split('/')
    .map((segment) => decodeSegment(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The `#/…` fragment of a path, escaped so that {@link parsePointer} reads it back.
 * @example formatPointer(['paths', '/pets']) // '#/paths/~1pets'
 */
export function formatPointer(path: readonly string[]): string {
  return path.length === 0
    ? '#'
    : `#/${path.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1').replace(/%/g, '%25')).join('/')}`;
}

/** Where a path leads in a document: the value, or the first segment that is not there. */
export type Lookup = { found: true; value: unknown } | { found: false; missing: string; parent: string[] };

/**
 * Follows a path through objects and arrays.
 * @example lookUp({ a: [1, 2] }, ['a', '1']) // { found: true, value: 2 }
 */
export function lookUp(document: unknown, path: readonly string[]): Lookup {
  let value = document;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) {
      return { found: false, missing: segment, parent: path.slice(0, i) };
    }
    value = (value as Record<string, unknown>)[segment];
  }
  return { found: true, value };
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
