// What the admin API may change in a mock, as the app provides it.
import type { Override } from '../respond/overrides.js';
import type { Coverage } from '../reports/coverage.js';
import type { Pact, PactParties } from '../reports/pact.js';

/** The mock's controls behind `/__mock`. */
export interface MockControls {
  /** Validates and adds an override to a session; `full` when the session holds as many as it may. */
  override(
    session: string,
    spec: unknown,
  ): { ok: true; override: Override } | { ok: false; errors: string[]; full?: boolean };
  /** Resets one session, or everything when no session is named. */
  reset(session?: string): void;
  /** How every call so far covered the contract (see ContractRecord). */
  coverage(): Coverage;
  /** Starts counting coverage (and the Pact's calls) again. */
  clearCoverage(): void;
  /** A Pact of every call so far. */
  pact(parties: PactParties): Pact;
}
