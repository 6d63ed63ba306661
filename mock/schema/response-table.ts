// The documented responses of one operation, and the one rule that finds the response for a status.
import type { IHttpOperationResponse } from '@stoplight/types';

/** An operation's responses, compiled once. */
export interface ResponseTable {
  /** The documented codes as written (`200`, `4XX`, `default`), in contract order. */
  readonly codes: readonly string[];
  /** The response a status is answered with: its exact code, else its class (`4XX`), else `default`. */
  lookup(status: number): IHttpOperationResponse | undefined;
  /** The response sent when nothing else is asked: the lowest 2xx, else `2XX`, else `default`, else the first. */
  readonly success: IHttpOperationResponse | undefined;
  /** The status `success` is sent with (a class or `default` answers 200). */
  readonly successStatus: number;
  /** The first documented 5xx (an injected failure answers it), if there is one. */
  readonly failure: number | undefined;
}

/**
 * Compiles the responses of an operation.
 * @example compileResponses(spec.responses).lookup(404)?.code // '404', or '4XX', or 'default'
 */
export function compileResponses(responses: IHttpOperationResponse[]): ResponseTable {
  const byCode = new Map<string, IHttpOperationResponse>();
  // The first of a code wins, as a search in contract order would find it.
  for (const response of responses)
    if (!byCode.has(response.code.toUpperCase())) byCode.set(response.code.toUpperCase(), response);
  const exact2xx = responses.filter((r) => /^2\d\d$/.test(r.code)).sort((a, b) => Number(a.code) - Number(b.code))[0];
  const success = exact2xx ?? byCode.get('2XX') ?? byCode.get('DEFAULT') ?? responses[0];
  const failure = responses.find((r) => /^5\d\d$/.test(r.code));
  return {
    codes: responses.map((r) => r.code),
    lookup: (status) => byCode.get(String(status)) ?? byCode.get(`${String(status)[0]}XX`) ?? byCode.get('DEFAULT'),
    success,
    successStatus: success ? statusOf(success.code) : 200,
    failure: failure ? Number(failure.code) : undefined,
  };
}

/**
 * The status to send for a documented code: the code itself, else the status asked for (a class or `default`
 * answers what was asked), else the class's first (`4XX` → 400), else 200.
 */
export function statusOf(code: string, asked?: number): number {
  if (/^\d{3}$/.test(code)) return Number(code);
  if (asked !== undefined) return asked;
  if (/^\dXX$/i.test(code)) return Number(code[0]) * 100;
  return 200;
}
