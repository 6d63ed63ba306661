// Loads a contract from a path or URL, with the files and URLs it refers to.
import { isAbsolute, resolve } from 'node:path';
import { buildContract, timed, type Contract, type LoadSteps } from '../contract/contract.js';
import { fileDocuments, isUrl, readDocument } from './read-document.js';
import './prism-modules.js';

export { ContractError, type Contract, type Operation } from '../contract/contract.js';

/**
 * Loads an OpenAPI 3.x or Swagger 2.0 document, or a Postman collection (v2), from a path or URL, with the
 * files and URLs it refers to, reading them every time (about 20 ms for the bundled contract once warm;
 * a second for a 4 MB one): to start many mocks of one contract, load it once and hand the `Contract` to each
 * (`startMock({ contract })`, `createApp(contract)`). A contract is never changed by a mock. A contract may
 * have no operation (one with only webhooks): every request then answers 404.
 * @throws ContractError saying what is wrong, and where
 * @example const contract = await loadContract('contracts/membership.openapi.yaml');
 */
export function loadContract(source: string, cwd = process.cwd()): Promise<Contract> {
  return loadContractTimed(source, cwd, {});
}

/** {@link loadContract}, saying in `steps` how long each step took (for test/bench/load-contract.ts). */
export async function loadContractTimed(source: string, cwd: string, steps: LoadSteps): Promise<Contract> {
  const location = isUrl(source) || isAbsolute(source) ? source : resolve(cwd, source);
  const document = await timed(steps, 'read', () => readDocument(location, `the contract ${location}`));
  // The files its references read, noted as they are read: a watch of the contract watches them too.
  const files: string[] = [];
  const documents = {
    ...fileDocuments,
    read(at: string, what: string) {
      if (!isUrl(at)) files.push(at);
      return fileDocuments.read(at, what);
    },
  };
  const contract = await buildContract(document, location, documents, steps);
  return Object.assign(contract, { files });
}
