// autocannon as the bench scripts that count requests call it (it ships no types; @types/autocannon is not
// installed): one load of a route to a server, resolving with how many requests were answered.
// @ts-expect-error: typed here, below.
import autocannonUntyped from 'autocannon';

/** A request of the load, as autocannon's `setupRequest` builds it. */
export interface CannonRequest {
  method: string;
  path: string;
  body?: string;
}

/** Runs one load (autocannon's options) and resolves with its totals. */
export const autocannon = autocannonUntyped as (
  opts: Record<string, unknown>,
) => Promise<{ requests: { total: number }; non2xx: number }>;
