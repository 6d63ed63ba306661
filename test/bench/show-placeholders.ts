// Prints twenty placeholder records as a demo shows them (the first page of two passes and two credentials of
// five members), for a person to read: names, labels, statuses and dates should all make sense together.
// Read as of today, as `npm start` reads them, unless --as-of says otherwise (seed, or a day such as 2026-11-26).
// Run: npm run demo:records [-- --seed 7] [-- --as-of seed] [-- --json]
import { parseArgs } from 'node:util';
import { datedGenerators, pinAsOf } from '../../mock/instance/dated-generators.js';
import { startMock, type AsOf } from '../../mock/index.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    'as-of': { type: 'string', default: 'today' },
    json: { type: 'boolean', default: false },
  },
});
const MEMBERS = ['mbr_1001', 'mbr_1002', 'mbr_1003', 'mbr_1004', 'mbr_1005'];
const COLLECTIONS = ['passes', 'credentials'];
const PAGE = 2;

const seed = /^\d+$/.test(values.seed!) ? Number(values.seed) : values.seed!;
const asOf = pinAsOf(values['as-of'] as AsOf);
const mock = await startMock({ seed, asOf, log: 'off' });
try {
  // The mock reads the same instant from the same seed and day.
  const instant = datedGenerators(seed, asOf).asOf.toISOString().slice(0, 16).replace('T', ' ');
  const which = asOf === 'seed' ? "the seed's own day, the same on every day" : `--as-of ${values['as-of']}`;
  console.log(`Placeholders of seed ${values.seed}, as of ${instant} UTC (${which})`);
  for (const member of MEMBERS) {
    for (const collection of COLLECTIONS) {
      const path = `/members/${member}/${collection}?limit=${PAGE}`;
      const answer = await fetch(`${mock.url}${path}`, { headers: { Authorization: 'Bearer demo' } });
      const { data } = (await answer.json()) as { data: Record<string, unknown>[] };
      console.log(`\nGET ${path}`);
      if (values.json) data.forEach((record) => console.log(`  ${JSON.stringify(record)}`));
      else printTable(data);
    }
  }
} finally {
  await mock.close();
}

/** Records as aligned columns, one a line, `–` for null; the member id is left out (it is in the path). */
function printTable(records: Record<string, unknown>[]): void {
  const fields = Object.keys(records[0] ?? {}).filter((field) => field !== 'member_id');
  const cell = (value: unknown) => (value === null || value === undefined ? '–' : String(value));
  const widths = fields.map((field) => Math.max(field.length, ...records.map((r) => cell(r[field]).length)));
  const line = (cells: string[]) => `  ${cells.map((text, i) => text.padEnd(widths[i]!)).join('  ')}`.trimEnd();
  console.log(line(fields));
  for (const record of records) console.log(line(fields.map((field) => cell(record[field]))));
}
