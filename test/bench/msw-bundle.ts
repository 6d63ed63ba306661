// What a browser would download of the MSW handlers (mock/msw/create-handlers.ts): the module bundled for the
// browser with Vite, minified, its size and gzip size, and the packages that weigh most. A first look for the
// browser step (issue 30), not yet a budget: Prism's modules, which the platform installs, are not in it, and
// the bundle is not run. Prints figures; asserts nothing. Run: npm run bench:msw-bundle
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';

/** Node's modules: a package that still reaches one is a gap for the browser step, listed below. */
const NODE = /^(?:node:|(?:path|fs|url|util|crypto|stream|os|module|http|https|events|buffer|zlib)$)/;
const ENTRY = fileURLToPath(new URL('../../mock/msw/create-handlers.ts', import.meta.url));

const result = (await build({
  configFile: false,
  logLevel: 'silent',
  build: {
    write: false,
    minify: true,
    lib: { entry: ENTRY, formats: ['es'], fileName: 'handlers' },
    // Node's modules a package still reaches are left out and listed: each is a gap for the browser step.
    // msw is the app's own (a peer dependency): not counted here.
    rollupOptions: { external: (id) => id === 'msw' || id.startsWith('msw/') || NODE.test(id) },
  },
})) as Rolldown.RolldownOutput[];

const chunks = result.flatMap((r) => r.output).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
const code = chunks.map((c) => c.code).join('\n');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log(`handlers for the browser: ${kib(Buffer.byteLength(code))} minified, ${kib(gzipSync(code).length)} gzip`);

const byPackage = new Map<string, number>();
for (const chunk of chunks)
  for (const [id, info] of Object.entries(chunk.modules)) {
    const inModules = id.split('node_modules/').pop()!;
    const name = id.includes('node_modules/')
      ? inModules
          .split('/')
          .slice(0, inModules.startsWith('@') ? 2 : 1)
          .join('/')
      : 'membership-mock (mock/)';
    byPackage.set(name, (byPackage.get(name) ?? 0) + info.renderedLength);
  }
console.log('heaviest (as rendered, before minifying):');
for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 10))
  console.log(`  ${name.padEnd(34)} ${kib(bytes)}`);
// Imported, or required by a CommonJS package the bundler kept as a `require` that fails in a browser.
const imported = chunks.flatMap((c) => [...c.imports, ...c.dynamicImports]).filter((id) => NODE.test(id));
const required = [...code.matchAll(/\(\s*["']((?:node:)?[a-z_]+)["']\s*\)/g)].map(([, id]) => id!);
const reached = [...new Set([...imported, ...required.filter((id) => NODE.test(id))])];
console.log(`Node modules still reached: ${reached.join(', ') || 'none'}`);
