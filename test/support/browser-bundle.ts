// The browser bundle `npm run build` writes (dist/browser/msw.js), for the tests that load it as it ships: refused
// when missing or older than what it is built from, so a test never passes on a bundle of yesterday's code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUNDLE = join(ROOT, 'dist/browser/msw.js');

/** The newest modification time of the files under `dir` (recursively). */
function newest(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? newest(path) : statSync(path).mtimeMs;
    }),
  );
}

/**
 * The bundle's path, once it is there and built after its sources last changed (mock/, build/).
 * @throws Error saying to run `npm run build`
 */
export function builtBundle(): string {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: npm run build first.`);
  const built = statSync(BUNDLE).mtimeMs;
  if (newest(join(ROOT, 'mock')) > built || newest(join(ROOT, 'build')) > built)
    throw new Error(`${BUNDLE} is older than mock/ or build/: npm run build first.`);
  return BUNDLE;
}
