// What a provider verification found: one step per request, and what was skipped.

/** One request of the walk and what was wrong with its answer. */
export interface VerifyStep {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** The path requested, with its query string. */
  path: string;
  /** The status received; `null` when no answer came (network error or timeout). */
  status: number | null;
  /** Readable messages, empty when the answer kept the contract. */
  violations: string[];
  /** Milliseconds from sending the request to reading the whole answer (or giving up). */
  ms?: number;
}

/** An operation the walk could not call, and why. */
export interface SkippedOperation {
  operationId: string;
  reason: string;
}

/** The outcome of {@link verifyProvider}: it passed when `violations` is 0. */
export interface VerifyReport {
  steps: VerifyStep[];
  /** How many violations all steps hold together. */
  violations: number;
  /** How many requests were sent. */
  requests: number;
  skipped: SkippedOperation[];
  /** The server verified, as given. */
  baseUrl?: string;
  /** The contract verified against. */
  contract?: { title: string; version: string };
}
