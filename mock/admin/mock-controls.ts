// What the admin API may change in a mock, as the app provides it.
import type { Override } from '../respond/overrides.js';

/** The mock's controls behind `/__mock`. */
export interface MockControls {
  /** Validates and adds an override to a session; `full` when the session holds as many as it may. */
  override(
    session: string,
    spec: unknown,
  ): { ok: true; override: Override } | { ok: false; errors: string[]; full?: boolean };
  /** Resets one session, or everything when no session is named. */
  reset(session?: string): void;
}
