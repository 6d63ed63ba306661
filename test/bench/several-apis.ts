// Several APIs in one process against one process each: the CLI started once with every contract given (each
// under its own mount), then once per contract, each time from spawn to the first answer of /__mock/health, with
// the process's RSS then. Prints a table; asserts nothing. Run: npm run bench:apis -- FILE… (or a folder: its
// .yaml/.json files, and a sub-folder's first file that holds `openapi:` or `swagger:` near its top).
// Reads dist/ (npm run build first).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/mock/cli.js', import.meta.url));

/** The contract files a folder holds: its own, and one document per sub-folder (a contract split in files). */
function contractsIn(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => {
      const full = join(path, name);
      if (statSync(full).isDirectory()) {
        const top = readdirSync(full).find((f) => /\.(ya?ml|json)$/.test(f) && isDocument(join(full, f)));
        return top ? [join(full, top)] : [];
      }
      return /\.(ya?ml|json)$/.test(name) ? [full] : [];
    });
}

function isDocument(file: string): boolean {
  return /^\s*["']?(openapi|swagger)["']?\s*:/m.test(readFileSync(file, 'utf8').slice(0, 4096));
}

/** Spawn to the first health answer, and the RSS (from /proc) once it answered. */
async function start(args: string[]): Promise<{ ms: number; rssMb: number; operations: number }> {
  const began = performance.now();
  const child = spawn(process.execPath, [CLI, '--port', '0', '--log', 'off', '--no-watch', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  child.stderr.on('data', (d: Buffer) => (said += d));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        said += d;
        const found = /at (http:\/\/\S+) /.exec(said);
        if (found) resolve(found[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${said.slice(0, 2000)}`)));
    });
    await fetch(`${url}/__mock/health`);
    const ms = performance.now() - began;
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
    const operations = Number(/serving (\d+) operation/.exec(said)?.[1] ?? 0);
    return { ms, rssMb, operations };
  } finally {
    child.kill('SIGKILL');
  }
}

const files = process.argv.slice(2).flatMap(contractsIn);
if (files.length === 0) {
  console.error('usage: npm run bench:apis -- FILE|FOLDER…');
  process.exit(2);
}
const names = files.map(
  (f, i) =>
    `${basename(f)
      .replace(/\.(openapi\.)?(ya?ml|json)$/i, '')
      .replace(/[^\w-]/g, '-')}-${i}`,
);
const together = await start(files.flatMap((file, i) => ['--contract', `${names[i]}=${file}`]));
const alone: { name: string; ms: number; rssMb: number; operations: number }[] = [];
for (const [i, file] of files.entries()) alone.push({ name: names[i]!, ...(await start(['--contract', file])) });

for (const one of alone)
  console.log(
    `${one.name.padEnd(40)} ${String(one.operations).padStart(5)} ops ${one.ms.toFixed(0).padStart(6)} ms ${one.rssMb.toFixed(0).padStart(5)} MiB`,
  );
const sum = (key: 'ms' | 'rssMb' | 'operations') => alone.reduce((total, one) => total + one[key], 0);
console.log(`\n| ${files.length} contracts                 | operations | spawn to first answer | RSS after start |`);
console.log('| ---------------------------- | ---------- | --------------------- | --------------- |');
console.log(
  `| one process, all mounted     | ${together.operations} | ${(together.ms / 1000).toFixed(2)} s | ${together.rssMb.toFixed(0)} MiB |`,
);
console.log(
  `| one process each (sum)       | ${sum('operations')} | ${(sum('ms') / 1000).toFixed(2)} s | ${sum('rssMb').toFixed(0)} MiB |`,
);
console.log(
  `| ratio (together / sum)       |  | ${(together.ms / sum('ms')).toFixed(2)} | ${(together.rssMb / sum('rssMb')).toFixed(2)} |`,
);
