// How long a fresh in-process mock takes: the first contract parse, then warm parses, createApp, and
// startMock/close with the path (a parse each time) or with the loaded contract. Prints figures; asserts
// nothing. Run: npm run bench:start
import { performance } from 'node:perf_hooks';
import { createApp, DEFAULT_CONTRACT, loadContract, startMock } from '../../mock/index.js';

const ROUNDS = Number(process.env.ROUNDS ?? 50);
const time = async (fn: () => unknown) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const first = await time(() => loadContract(DEFAULT_CONTRACT));
const contract = await loadContract(DEFAULT_CONTRACT);
const parses: number[] = [];
const apps: number[] = [];
const byPath: number[] = [];
const byContract: number[] = [];
const serve = (source: string | typeof contract, seed: number) => async () => {
  const mock = await startMock({ contract: source, seed, watch: false });
  await fetch(`${mock.url}/__mock/health`);
  await mock.close();
};
for (let i = 0; i < ROUNDS; i++) {
  parses.push(await time(() => loadContract(DEFAULT_CONTRACT)));
  apps.push(await time(() => createApp(contract, { seed: i })));
  byPath.push(await time(serve(DEFAULT_CONTRACT, i)));
  byContract.push(await time(serve(contract, i)));
}
console.log(`in-process start, ${ROUNDS} rounds (median ms)`);
console.log(`  first contract parse            ${first.toFixed(1)}`);
console.log(`  contract parse, warm            ${median(parses).toFixed(1)}`);
console.log(`  createApp (no socket)           ${median(apps).toFixed(2)}`);
console.log(`  startMock + first answer + close, by path           ${median(byPath).toFixed(2)}`);
console.log(`  startMock + first answer + close, loaded contract   ${median(byContract).toFixed(2)}`);
