// `membership-mock/msw/browser`: the contract's MSW handlers (msw/create-handlers.ts) for `setupWorker` in a
// browser, with Prism's modules installed by static imports (browser/prism-modules.ts). The package ships it
// bundled (dist/browser/msw.js, built by build/browser-bundle.ts): no Node.js module, patterns in linear time.
import './browser/prism-modules.js';
import { buildContract, type Contract } from './contract/contract.js';
import { noDocuments } from './contract/no-documents.js';
import type { UntypedOperations } from './control/operation-types.js';
import { fetchContract } from './browser/fetch-contract.js';
import {
  createHandlers as createContractHandlers,
  type ContractHandlers,
  type HandlersOptions,
} from './msw/create-handlers.js';

export type { ContractHandlers, HandlersOptions };

/** What the handlers take in a browser: the contract may also be a URL to fetch it from. */
export interface BrowserHandlersOptions extends Omit<HandlersOptions, 'contract'> {
  /**
   * The contract: an OpenAPI document as an object (imported JSON, or YAML parsed at build time), a URL
   * (absolute, or relative to the page) of one in JSON or YAML, or a contract loaded already. Every schema it
   * refers to must be inside it (`npx @redocly/cli bundle` makes one file of several).
   */
  contract: string | URL | Contract | object;
}

/**
 * MSW request handlers answering every operation of a contract as the mock server does, for `setupWorker`, with
 * the in-process test API (calls, waitForCall, override, faults, reset). State lives in the page's memory: a
 * reload starts again from the seed.
 * @example
 * const mock = await createHandlers({ contract: '/membership.openapi.yaml', baseUrl: '/api', seed: 7 });
 * await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass' });
 */
export async function createHandlers<Ops = UntypedOperations>(
  options: BrowserHandlersOptions,
): Promise<ContractHandlers<Ops>> {
  const { contract, ...rest } = options;
  if (typeof contract !== 'string' && !(contract instanceof URL))
    return createContractHandlers<Ops>({ ...rest, contract });
  // Built here, so what is wrong with it names the URL it came from.
  const built = await buildContract(await fetchContract(contract), String(contract), noDocuments);
  return createContractHandlers<Ops>({ ...rest, contract: built });
}
