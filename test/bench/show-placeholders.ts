// Prints twenty placeholder records as a demo shows them (the first page of two passes and two credentials of
// five members), for a person to read: names, labels, statuses and dates should all make sense together.
// Run: npm run demo:records [-- --seed 7] [-- --json]
import { parseArgs } from 'node:util';
import { createBodyGenerator } from '../../mock/generate/generate-body.js';
import { startMock } from '../../mock/index.js';

const { values } = parseArgs({
  options: { seed: { type: 'string', default: '1' }, json: { type: 'boolean', default: false } },
});
const MEMBERS = ['mbr_1001', 'mbr_1002', 'mbr_1003', 'mbr_1004', 'mbr_1005'];
const COLLECTIONS = ['passes', 'credentials'];
const PAGE = 2;

const seed = /^\d+$/.test(values.seed!) ? Number(values.seed) : values.seed!;
const mock = await startMock({ seed, log: 'off' });
try {
  // The mock's generator derives the same anchor from the same seed.
  const anchor = createBodyGenerator(seed).anchor.toISOString().slice(0, 16).replace('T', ' ');
  console.log(
    `Placeholders of seed ${values.seed}, as of ${anchor} UTC (the seed's anchor: they never follow the clock)`,
  );
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
