// After each test file: every response its mocks sent must validate against the contract, with ajv.
import { afterAll, expect } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { createContractValidator, type ContractValidator } from './contract-validator.js';
import { trackedCalls } from './harness.js';

const validators = new Map<string, ContractValidator>();

function validatorOf(source: string): ContractValidator {
  let validator = validators.get(source);
  if (!validator) validators.set(source, (validator = createContractValidator(source)));
  return validator;
}

afterAll(() => {
  const failures: string[] = [];
  // The mock's own problem is the one our contract documents (its closed `Problem`), whatever contract it serves.
  const ours = validatorOf(DEFAULT_CONTRACT);
  for (const { source, calls } of trackedCalls()) {
    const validator = validatorOf(source);
    // Our contract documents every refusal the mock makes; another contract may not, and the mock still
    // refuses there with its own problem (checked below), as the journal's `refusal.documented` says.
    const strict = source === DEFAULT_CONTRACT;
    for (const call of calls) {
      const { status, headers, body } = call.response;
      // The connection was dropped on purpose: nothing was answered.
      if (call.fault === 'drop') continue;
      // A real backend answered (`proxy`): the proxy checks its answers itself (test/server/proxy.test.ts).
      if (call.answeredBy === 'proxy') continue;
      // The journal kept only the start of a body past its journalBodyLimit: there is nothing whole to check.
      if (call.response.truncated) continue;
      // The contract's own body breaks its schema: the mock reported it (and with --errors answered a 500).
      if (call.responseViolations) continue;
      const where = `${call.method} ${call.path} -> ${status}`;
      const documented = call.operationId !== null && validator.documents(call.operationId, status);
      // The mock's own condition (a full state, an injected failure, an operation that documents no response):
      // a contract that documents no such 5xx still gets the mock's own problem, checked as such below.
      const ownLimit = status >= 500 && !documented;
      if (call.operationId && call.method === 'HEAD') {
        if (!documented) failures.push(`${where}: status ${status} is not documented`);
      } else if (call.operationId && !ownLimit && (strict || call.refusal?.documented !== false)) {
        failures.push(
          ...validator.check(call.operationId, status, headers['content-type'], body).map((e) => `${where}: ${e}`),
        );
      } else if (body !== undefined) {
        // No operation matched (or the journal says the contract documents nothing fitting the refusal):
        // the mock's own problem, with its status, and no member our Problem schema does not declare.
        const ok =
          headers['content-type'] === 'application/problem+json' && (body as Record<string, unknown>).status === status;
        if (!ok) failures.push(`${where}: not a problem+json with its status`);
        failures.push(...ours.checkSchema('Problem', body).map((e) => `${where}: the mock's own problem: ${e}`));
      }
    }
  }
  expect(failures, 'every response conforms to the contract').toEqual([]);
});
