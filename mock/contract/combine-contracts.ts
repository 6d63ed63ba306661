// Several APIs served by one mock: their contracts made one, each under its mount, so routing, the journal,
// overrides, waits and faults work as for one contract while each API keeps its own paths, data and name.
import type { Contract, Operation } from './contract.js';
import { ContractError } from './contract-error.js';
import { editDistance } from '../lib/nearest-name.js';
import { below } from '../lib/path-prefix.js';

/** One API of a combined contract. */
export interface Api {
  /** Its name: in the journal (`contract`), the banner, coverage, and qualified operationIds. */
  name: string;
  /** The path prefix it is served under; `/` for its own paths. */
  mount: string;
  /** Its contract as loaded (its own paths, its own operationIds). */
  contract: Contract;
}

/** A contract made of several APIs: its operations say which API each is (`Operation.api`). */
export interface CombinedContract extends Contract {
  apis: Api[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Makes several contracts one. A mounted API's paths get its mount in front (`/payments` + `/charges`), and
 * its servers' path prefixes give way to the mount; an operationId two APIs share is named `api:operationId`
 * (the others keep theirs, so a test of one API reads as before). Two operations of one method and one path
 * (parameter names aside) are refused, naming both.
 * @throws ContractError naming what collides, a bad name or mount
 * @example combineContracts([{ name: 'membership', mount: '/', contract: a },
 * { name: 'payments', mount: '/payments', contract: b }])
 */
export function combineContracts(apis: readonly Api[]): CombinedContract {
  const names = new Set<string>();
  for (const api of apis) {
    if (!NAME.test(api.name))
      throw new ContractError(
        `The API name "${api.name}" must be letters, digits, "-" or "_" (at most 64), starting with a letter or digit.`,
      );
    if (names.has(api.name)) throw new ContractError(`Two APIs are named "${api.name}": give each its own name.`);
    names.add(api.name);
  }
  const mounted = apis.map((api) => ({ ...api, mount: normalMount(api.mount, api.name) }));
  const count = new Map<string, number>();
  for (const api of mounted) for (const op of api.contract.operations) count.set(op.id, (count.get(op.id) ?? 0) + 1);
  const operations: Operation[] = [];
  const routes = new Map<string, { api: string; id: string; path: string }>();
  for (const api of mounted) {
    for (const op of api.contract.operations) {
      const path = api.mount === '/' ? op.path : op.path === '/' ? api.mount : `${api.mount}${op.path}`;
      const id = count.get(op.id)! > 1 ? `${api.name}:${op.id}` : op.id;
      const route = `${op.method} ${path.replace(/\{[^}]*\}/g, '{}')}`;
      const taken = routes.get(route);
      if (taken)
        throw new ContractError(
          `Two APIs answer ${op.method.toUpperCase()} ${path}: ${taken.api}'s ${taken.id} (${taken.path}) and ` +
            `${api.name}'s ${op.id}. Mount one of them under a path of its own (--contract ${api.name}=FILE ` +
            `serves it under /${api.name}).`,
        );
      routes.set(route, { api: api.name, id: op.id, path });
      // A mounted API is served under its mount alone: its servers' prefixes would put it elsewhere too.
      const spec = api.mount === '/' ? { ...op.spec, path } : { ...op.spec, path, servers: [] };
      operations.push({ id, method: op.method, path, spec, api: api.name });
    }
  }
  return {
    source: mounted.map((api) => api.contract.source).join(', '),
    title: mounted.map((api) => api.contract.title).join(' + '),
    version: mounted.map((api) => api.contract.version).join(' + '),
    operations,
    prepared: new WeakMap(),
    apis: mounted,
  };
}

/**
 * The API a path belongs to by its mount (the longest that prefixes it), for a request no operation matched.
 * @example apiOfPath(combined, '/payments/nowhere') // 'payments'
 */
export function apiOfPath(contract: Contract, path: string): string | undefined {
  const apis = (contract as Partial<CombinedContract>).apis;
  if (!apis) return undefined;
  let best: Api | undefined;
  for (const api of apis) {
    if (api.mount !== '/' && below(path, api.mount) !== undefined) {
      if (!best || api.mount.length > best.mount.length) best = api;
    }
  }
  return best?.name ?? apis.find((api) => api.mount === '/')?.name;
}

/** The mount of one API of a combined contract (`/` when it has none). */
export function mountOf(contract: Contract, name: string): string {
  return (contract as Partial<CombinedContract>).apis?.find((api) => api.name === name)?.mount ?? '/';
}

/** The names of a contract's APIs: none for one contract. */
export function apiNames(contract: Contract): string[] {
  return ((contract as Partial<CombinedContract>).apis ?? []).map((api) => api.name);
}

/**
 * What is wrong with an API name a test gives: it names the nearest, or says the mock serves one API.
 * @example unknownApi('payment', ['membership', 'payments'])
 * // '"payment" is not an API of this mock. Did you mean payments? It serves membership, payments.'
 */
export function unknownApi(name: string, apis: readonly string[]): string {
  if (apis.length === 0) return `"${name}" is not an API of this mock: it serves one contract, with no names.`;
  const near = apis
    .map((api) => ({ api, distance: editDistance(name.toLowerCase(), api.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance)[0]!;
  const guess = near.distance <= Math.max(2, Math.ceil(name.length / 3)) ? ` Did you mean ${near.api}?` : '';
  return `"${name}" is not an API of this mock.${guess} It serves ${apis.join(', ')}.`;
}

/** A mount as a path prefix: a leading slash, no trailing one; `/` for none. */
function normalMount(mount: string, name: string): string {
  const trimmed = mount.trim().replace(/\/+$/, '');
  if (trimmed === '') return '/';
  if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(trimmed) || trimmed.includes('//') || /\{|\}/.test(trimmed))
    throw new ContractError(`The mount "${mount}" must be a path such as /payments (no parameters, no "//").`);
  // The admin API answers everything under /__mock first: an API there would never be reached.
  if (trimmed === ADMIN || trimmed.startsWith(`${ADMIN}/`))
    throw new ContractError(
      `The mount "${mount}" is the admin API's (${ADMIN}): mount ${name} elsewhere, e.g. /${name}.`,
    );
  return trimmed;
}

const ADMIN = '/__mock';
