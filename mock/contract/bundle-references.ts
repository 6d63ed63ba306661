// Gathers the documents a contract refers to (relative files, URLs) into the contract itself, so that every
// reference becomes local (`#/…`), checks that each reference leads somewhere, and lists the schema references
// and where schemas start, for resolve-schemas.ts. Only references are followed: see walk-references.ts.
import { isContainer, isObject } from '../lib/json-value.js';
import { ContractError } from './contract-error.js';
import { formatPointer, lookUp, parsePointer } from '../lib/json-pointer.js';
import type { DocumentSource } from './document-source.js';
import { isUrl } from './parse-document.js';
import { walkReferences, type Mode, type Place, type RefHolder, type Walk } from './walk-references.js';

/** Where the documents a contract refers to are kept inside it, by their path from the contract's folder. */
export const FILES_KEY = 'x-mock-files';

/** The references of a contract, all local once bundled. */
export interface References {
  /** The `$ref` holders whose target is a schema. */
  schemaRefs: Set<RefHolder>;
  /** Where schemas start (the `schema` of a parameter, media type or header; each named schema): parent[key]. */
  schemaRoots: Array<[Record<string, unknown>, string]>;
  /**
   * Where references to OpenAPI objects (path items, parameters, responses…) and examples are: see inlineReferences.
   */
  places: Place[];
}

/** A document of the contract: the contract itself, or a file it refers to. */
interface Source {
  location: string;
  /** Where its content is inside the contract. */
  prefix: string[];
  /** How messages name it. */
  name: string;
}

interface Site {
  holder: RefHolder;
  mode: Mode;
  path: string[];
  source: Source;
  at: Place | undefined;
}

/**
 * Bundles the contract in place and lists its references.
 * @param swagger2 see {@link Walk.swagger2}
 * @param documents where the files and URLs it refers to are read from
 * @throws ContractError naming the reference that cannot be read or leads nowhere
 */
export async function bundleReferences(
  document: Record<string, unknown>,
  location: string,
  swagger2: boolean,
  documents: DocumentSource,
): Promise<References> {
  const root: Source = { location, prefix: [], name: `the contract ${location}` };
  // null: a file that could not be read, referred to only by example values (which stay data then).
  const sources = new Map<string, Source | null>([[location, root]]);
  const found: References = { schemaRefs: new Set(), schemaRoots: [], places: [] };
  const local = new WeakSet<object>();
  const seen = new Map<object, number>();
  const jobs: Array<{ value: unknown; mode: Mode; path: string[]; source: Source }> = [
    { value: document, mode: 'node', path: [], source: root },
  ];
  let waiting: Array<Site & { location: string }> = [];

  const follow = (site: Site): void => {
    const { holder, mode, source } = site;
    const ref = holder.$ref;
    const hash = ref.indexOf('#');
    const address = local.has(holder) || hash === 0 ? '' : hash < 0 ? ref : ref.slice(0, hash);
    // An example given whole as a reference to another file is read from it; a URL there is only data.
    if (mode === 'data' && isUrl(address)) return;
    const at = address === '' ? undefined : documents.locate(address, source.location);
    const target = at === undefined ? (local.has(holder) ? root : source) : sources.get(at);
    if (target === undefined) return void waiting.push({ ...site, location: at! });
    if (target === null) return;
    const pointer = parsePointer(hash < 0 ? '#' : ref.slice(hash));
    const full = pointer && (local.has(holder) ? pointer : [...target.prefix, ...pointer]);
    const lookup = full && lookUp(document, full);
    if (!lookup?.found) {
      if (mode === 'data') return;
      if (!pointer) throw new ContractError(`${describe(site)} is not a JSON Pointer (it should read "#/…").`);
      const parent = formatPointer(lookup!.parent.slice(target.prefix.length));
      const there = target === source ? '' : ` of ${target.name}`;
      throw new ContractError(`${describe(site)} leads nowhere: ${parent}${there} has no "${lookup!.missing}".`);
    }
    if (!local.has(holder) && target !== root) holder.$ref = formatPointer(full!);
    local.add(holder);
    if (mode === 'schema') found.schemaRefs.add(holder);
    else if (mode !== 'schemas' && site.at) found.places.push(site.at);
    if (mode !== 'data') jobs.push({ value: lookup.value, mode, path: pointer!, source: target });
  };

  const load = async (location: string, sites: Site[]): Promise<void> => {
    const first = sites.find((site) => site.mode !== 'data') ?? sites[0]!;
    let content: unknown;
    try {
      content = await documents.read(location, `the file ${location} (${describe(first).replace(/^The /, 'the ')})`);
    } catch (error) {
      if (first.mode !== 'data') throw error;
      return void sources.set(location, null);
    }
    const key = documents.keyOf(location, root.location);
    const files = (document[FILES_KEY] ??= {}) as Record<string, unknown>;
    files[key] = content;
    sources.set(location, { location, prefix: [FILES_KEY, key], name: `the file ${key}` });
  };

  while (jobs.length > 0 || waiting.length > 0) {
    for (let job = jobs.pop(); job; job = jobs.pop()) {
      const { source } = job;
      const walk: Walk = {
        seen,
        swagger2,
        visitor: {
          reference: (holder, mode, path, at) => follow({ holder, mode, path: [...path], source, at }),
          schema: (parent, key) => found.schemaRoots.push([parent, key]),
        },
      };
      walkReferences(job.value, job.mode, job.path, walk);
    }
    const batch = waiting;
    waiting = [];
    const byLocation = new Map<string, Site[]>();
    for (const site of batch) byLocation.set(site.location, [...(byLocation.get(site.location) ?? []), site]);
    await Promise.all([...byLocation].map(([at, sites]) => load(at, sites)));
    batch.forEach(follow);
  }
  return found;
}

/**
 * Puts in place of each reference to an OpenAPI object (a path item, parameter, response…) or an example the
 * object it names, as Prism's own loader gave them to Prism's transformers, which cannot follow references
 * inside callbacks, nor a path item's. Done once the schemas are resolved: an object is put as it is then.
 */
export function inlineReferences(document: Record<string, unknown>, { places }: References): void {
  for (const place of places) place.parent[place.key] = targetOf(place.parent[place.key], document);
}

/**
 * What a (bundled, local) reference names, through references to references; keywords beside a `$ref` (an
 * OpenAPI 3.1 summary or description) win over the target's.
 */
function targetOf(value: unknown, document: unknown): unknown {
  const seen = new Set<string>();
  let current = value;
  while (isRef(current) && !seen.has(current.$ref)) {
    const { $ref, ...beside } = current;
    seen.add($ref);
    const lookup = lookUp(document, parsePointer($ref) ?? []);
    if (!lookup.found) return current;
    const next = lookup.value;
    current = Object.keys(beside).length > 0 && isObject(next) ? { ...next, ...beside } : next;
  }
  if (isRef(current)) {
    throw new ContractError(
      `The reference "${(value as RefHolder).$ref}" only leads to references, round in a circle.`,
    );
  }
  return current;
}

const isRef = (value: unknown): value is RefHolder =>
  isContainer(value) && typeof (value as RefHolder).$ref === 'string';

function describe({ holder, path, source }: Site): string {
  return `The reference "${holder.$ref}" at ${formatPointer(path)} in ${source.name}`;
}

/** A readable name for a bundled file: its name without extension. */
export function fileStem(key: string): string {
  const path = key.replace(/[?#].*$/, '');
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).replace(/\.(ya?ml|json)$/i, '');
}
