// The document source of a contract given as an object (a browser, a service worker, a bundled document): it
// reads nothing, so the document must carry every schema it refers to (`#/components/...`).
import { ContractError } from './contract-error.js';
import type { DocumentSource } from './document-source.js';

/**
 * Refuses every reference to another file or URL, naming it: bundle the document first
 * (`npx @redocly/cli bundle`), or give the contract's path in Node.
 * @example await buildContract(document, CONTRACT_OBJECT, noDocuments)
 */
export const noDocuments: DocumentSource = {
  read(location, what) {
    return Promise.reject(
      new ContractError(
        `${what} cannot be read here: a contract given as an object must hold every schema it refers to ` +
          `(${location} is another document). Bundle it first (npx @redocly/cli bundle), or give its path in Node.`,
      ),
    );
  },
  locate: (address) => address,
  keyOf: (location) => location,
};
