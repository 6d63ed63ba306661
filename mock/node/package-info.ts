// This package's name and version, as a HAR export names its creator.
import { readFileSync } from 'node:fs';
import type { HarCreator } from '../reports/har-export.js';

let known: HarCreator | undefined;

/** The mock as a HAR's creator: its package's name and version, read once (from the source tree or dist). */
export function packageCreator(): HarCreator {
  if (known) return known;
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const { name, version } = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as HarCreator;
      if (name === 'membership-mock') return (known = { name, version });
    } catch {
      // not there: the other layout
    }
  }
  return (known = { name: 'membership-mock', version: 'unknown' });
}
