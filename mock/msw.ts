// `membership-mock/msw` in Node: the contract's MSW handlers (msw/create-handlers.ts), which here also take the
// path or URL of a contract (the bundled membership contract by default), with Prism's modules installed.
// Prism's modules, loaded where Prism finds them, before anything reads a contract.
import './node/prism-modules.js';
import type { Contract } from './contract/contract.js';
import type { UntypedOperations } from './control/operation-types.js';
import {
  createHandlers as createContractHandlers,
  type ContractHandlers,
  type HandlersOptions,
} from './msw/create-handlers.js';
import { DEFAULT_CONTRACT } from './node/default-contract.js';
import { loadContract } from './node/load-contract.js';
import { packageCreator } from './node/package-info.js';

export type { ContractHandlers, HandlersOptions };

/** What the handlers take in Node: the contract may also be a path or URL. */
export interface NodeHandlersOptions extends Omit<HandlersOptions, 'contract'> {
  /**
   * The contract: a path or URL (read with the files it refers to), an OpenAPI document as an object, or a
   * contract loaded already (`loadContract`).
   * @default the bundled contracts/membership.openapi.yaml
   */
  contract?: string | Contract | object;
}

/**
 * MSW request handlers answering every operation of a contract as the mock server does, and the same
 * in-process test API as `startMock` (calls, waitForCall, override, faults, reset, coverage, the matchers).
 * @example
 * const mock = await createHandlers({ contract: 'contracts/membership.openapi.yaml', seed: 7 });
 * const server = setupServer(...mock.handlers);
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * afterEach(() => mock.reset());
 * afterAll(() => server.close());
 */
export async function createHandlers<Ops = UntypedOperations>(
  options: NodeHandlersOptions = {},
): Promise<ContractHandlers<Ops>> {
  const { contract = DEFAULT_CONTRACT, ...rest } = options;
  const loaded = typeof contract === 'string' ? await loadContract(contract) : contract;
  return createContractHandlers<Ops>({ ...rest, contract: loaded }, { creator: packageCreator });
}
