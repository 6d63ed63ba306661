// A small table router, compiled once: the contract's operations route on it, and so does the admin API.
import { BoundedTrieMemo } from '../lib/bounded-memo.js';

/** One entry: a lower-case method, a path template (`/members/{member_id}/passes`) and what it leads to. */
export interface Route<T> {
  method: string;
  path: string;
  value: T;
}

/** What a table found for a method and path. `allow` lists the path's methods, upper-case, in table order. */
export type RouteMatch<T> =
  { kind: 'matched'; route: Route<T> } | { kind: 'no-path' } | { kind: 'no-method'; allow: string[] };

interface Entry<T> {
  route: Route<T>;
  index: number;
  /** The template split on `/`, as written: for the match score. */
  raw: string[];
  /** Per segment after the leading slash: the decoded literal, or the pattern of a templated segment. */
  segments: (string | RegExp)[];
  templated: boolean;
}

/**
 * Routes requests the way Prism's router does, so a contract is served the same with or without Prism:
 * segments are compared percent-decoded; a templated segment (`{id}`, `{id}.json`) matches where its
 * pattern is found; a path without parameters wins over templated ones; among the rest the highest
 * Prism match score wins (one point a leading segment equal as written, half a point a templated one),
 * and a tie goes to the later entry. The table is built once; finding costs one pass over the entries
 * with as many segments as the path.
 * @example new RouteTable([{ method: 'get', path: '/a/{id}', value: 1 }]).find('get', '/a/7') // matched
 */
export class RouteTable<T> {
  readonly routes: readonly Route<T>[];
  #bySize = new Map<number, Entry<T>[]>();
  #found: BoundedTrieMemo<RouteMatch<T>> | undefined;

  /** @param remember how many answers to remember by method and path (none by default) */
  constructor(routes: Route<T>[], { remember = 0 }: { remember?: number } = {}) {
    this.routes = routes;
    this.#found = remember > 0 ? new BoundedTrieMemo(remember, 1024) : undefined;
    routes.forEach((route, index) => {
      if (!route.path.startsWith('/')) return;
      const segments = route.path.split('/').slice(1).map(decodeSegment).map(compileSegment);
      const entry = { route, index, raw: route.path.split('/'), segments, templated: segments.some(isPattern) };
      const list = this.#bySize.get(segments.length) ?? [];
      list.push(entry);
      this.#bySize.set(segments.length, list);
    });
  }

  /** The entry for a method (lower-case) and a path, or why there is none. */
  find(method: string, path: string): RouteMatch<T> {
    if (!this.#found) return this.#find(method, path);
    // The path last (it varies most): hashed here, it is hashed for the operation's own memo of its paths too.
    const key = [method, path];
    return this.#found.get(key) ?? this.#found.set(key, this.#find(method, path));
  }

  #find(method: string, path: string): RouteMatch<T> {
    const segments = segmentsOf(path);
    const entries = (segments && this.#bySize.get(segments.length)) || [];
    let best: Entry<T> | undefined;
    let bestScore = -1;
    let pathFound = false;
    for (const entry of entries) {
      if (!fits(entry, segments!)) continue;
      pathFound = true;
      if (entry.route.method !== method) continue;
      if (best && best.templated !== entry.templated) {
        if (entry.templated) continue;
        best = undefined;
      }
      const score = matchScore(entry.raw, path);
      if (!best || score >= bestScore) [best, bestScore] = [entry, score];
    }
    if (best) return { kind: 'matched', route: best.route };
    return pathFound ? { kind: 'no-method', allow: this.methods(path) } : { kind: 'no-path' };
  }

  /** The methods the table has for a path, upper-case, each once, in table order (for `Allow`). */
  methods(path: string): string[] {
    const segments = segmentsOf(path);
    const methods = new Set<string>();
    for (const entry of (segments && this.#bySize.get(segments.length)) || []) {
      if (fits(entry, segments!)) methods.add(entry.route.method.toUpperCase());
    }
    return [...methods];
  }
}

/** The decoded segments of a request path after its leading slash; `undefined` when it has none. */
function segmentsOf(path: string): string[] | undefined {
  return path.startsWith('/') ? path.split('/').slice(1).map(decodeSegment) : undefined;
}

function fits(entry: Entry<unknown>, segments: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const expected = entry.segments[i]!;
    if (typeof expected === 'string' ? expected !== segments[i] : !expected.test(segments[i]!)) return false;
  }
  return true;
}

/** Prism's score: one point a leading segment equal as written, half a point a templated one, up to the first other. */
function matchScore(raw: string[], path: string): number {
  const given = path.split('/');
  let score = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === given[i]) score += 1;
    else if (TEMPLATED.test(raw[i]!)) score += 0.5;
    else break;
  }
  return score;
}

const TEMPLATED = /{(.+)}/;

/** A literal segment stays a string; a templated one becomes Prism's (unanchored) pattern for it. */
function compileSegment(segment: string): string | RegExp {
  if (!TEMPLATED.test(segment)) return segment;
  const escaped = segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(escaped.replace(/\\\{[^\\]+\\\}/g, '(.*)'));
}

function isPattern(segment: string | RegExp): segment is RegExp {
  return segment instanceof RegExp;
}

function decodeSegment(segment: string): string {
  try {
    return segment && decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
