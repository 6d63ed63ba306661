// The one error a contract that cannot be served raises, whatever the step that found it.

/** Why a contract could not be served, in words for the person who named it. */
export class ContractError extends Error {
  override name = 'ContractError';
}
