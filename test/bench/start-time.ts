// How long a fresh in-process mock takes: the first contract parse, then cached parses, createApp and
// startMock/close. Prints figures; asserts nothing. Run: npm run bench:start
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
const cached: number[] = [];
const apps: number[] = [];
const servers: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  cached.push(await time(() => loadContract(DEFAULT_CONTRACT)));
  const contract = await loadContract(DEFAULT_CONTRACT);
  apps.push(await time(() => createApp(contract, { seed: i })));
  servers.push(
    await time(async () => {
      const mock = await startMock({ seed: i });
      await fetch(`${mock.url}/__mock/health`);
      await mock.close();
    }),
  );
}
console.log(`in-process start, ${ROUNDS} rounds (median ms)`);
console.log(`  first contract parse            ${first.toFixed(1)}`);
console.log(`  contract parse, cached          ${median(cached).toFixed(3)}`);
console.log(`  createApp (no socket)           ${median(apps).toFixed(2)}`);
console.log(`  startMock + first answer + close ${median(servers).toFixed(2)}`);
