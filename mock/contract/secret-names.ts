// Where a contract's credentials travel besides the headers that always carry them: its API keys' names.
import type { IHttpOperation } from '@stoplight/types';

/**
 * Where a contract's API keys travel: header names (lower case) and query parameter names. Keys sent as
 * cookies need no list: every cookie's value is redacted.
 */
export interface SecretNames {
  headers: ReadonlySet<string>;
  query: ReadonlySet<string>;
}

/** The names the contract's `apiKey` security schemes use, in any operation. */
export function secretNames(operations: readonly { spec: Pick<IHttpOperation, 'security'> }[]): SecretNames {
  const names = { headers: new Set<string>(), query: new Set<string>() };
  for (const { spec } of operations)
    for (const scheme of (spec.security ?? []).flat()) {
      if (scheme.type !== 'apiKey') continue;
      if (scheme.in === 'header') names.headers.add(scheme.name.toLowerCase());
      else if (scheme.in === 'query') names.query.add(scheme.name);
    }
  return names;
}
