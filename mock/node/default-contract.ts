// The contract served when none is named: contracts/membership.openapi.yaml of this package.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The contract served when none is named: contracts/membership.openapi.yaml of this package. */
export const DEFAULT_CONTRACT = findDefaultContract(dirname(fileURLToPath(import.meta.url)));

function findDefaultContract(from: string): string {
  // The module runs from mock/node/ (sources) or dist/mock/node/ (build): walk up to the package root.
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'contracts', 'membership.openapi.yaml');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return join(from, '..', '..', 'contracts', 'membership.openapi.yaml');
  }
}
