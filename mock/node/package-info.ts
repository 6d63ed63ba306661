// This package's name and version, as a HAR export names its creator.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HarCreator } from '../reports/har-export.js';

let known: HarCreator | undefined;

/** The mock as a HAR's creator: its package's name and version, read once (from the source tree or dist). */
export function packageCreator(): HarCreator {
  if (known) return known;
  // Paths, not `new URL()`: the global URL may be jsdom's in a component test (see admin/inspector-files.ts).
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const { name, version } = JSON.parse(readFileSync(join(here, up), 'utf8')) as HarCreator;
      if (name === 'membership-mock') return (known = { name, version });
    } catch {
      // not there: the other layout
    }
  }
  return (known = { name: 'membership-mock', version: 'unknown' });
}
