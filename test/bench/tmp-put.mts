import { performance } from 'node:perf_hooks';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStateFile } from '../../mock/state/open-state-file.js';
const file = join(mkdtempSync(join(tmpdir(), 'p-')), 's.db');
const initial: Record<string, Record<string, unknown>[]> = {};
for (let i = 0; i < 200000; i++) (initial[`/members/m${Math.floor(i / 1000)}/passes`] ??= []).push({ id: `pas_${i}`, name: 'Off-Peak Gym Pass', status: 'active', valid_from: '2025-01-01T00:00:00Z', valid_until: null, created_at: '2025-01-01T00:00:00Z', member_id: 'x' });
const { store } = await openStateFile(file, { limits: {}, initial, accept: (s) => s as never, idOf: (_, r) => String(r.id) });
const rec = (i: number) => ({ id: `pas_n${i}`, name: 'Off-Peak Gym Pass', status: 'active', valid_from: '2025-01-01T00:00:00Z', valid_until: null, created_at: '2025-01-01T00:00:00Z', member_id: 'x' });
let t = performance.now();
for (let i = 0; i < 5000; i++) { const c = `/members/new${i}/passes`; store.seed(c, [[`a${i}`, rec(1)], [`b${i}`, rec(2)], [`c${i}`, rec(3)]]); store.put(c, `pas_n${i}`, rec(i)); }
console.log('seed+promote+put µs', ((performance.now() - t) / 5000 * 1000).toFixed(1));
t = performance.now();
for (let i = 0; i < 5000; i++) { const c = `/members/new${i}/passes`; store.put(c, `pas_x${i}`, rec(i)); }
console.log('put into existing collection µs', ((performance.now() - t) / 5000 * 1000).toFixed(1));
store.close();
