// What a browser downloads of `membership-mock/msw/browser`: the bundle `npm run build` writes (dist/browser/msw.js,
// build/browser-bundle.mjs), built here in memory with the same configuration; its size, its gzip size against
// the budget, the packages that weigh most, and any Node.js module still reached. msw itself, the app's own (a
// peer dependency), is not in it. Prints figures; exits 1 over the budget. Run: npm run bench:msw-bundle
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { browserBundleConfig } from '../../build/browser-bundle.mjs';

/**
 * The most the bundle may weigh, gzip. Measured 27 Nov 2026 at 479 KiB: faker's one locale (en), Prism's validator
 * (lodash, fp-ts, ajv), re2js and the mock's own code dominate; the budget leaves room for the engine to grow, not
 * for a second locale or Postman's reader (1 MB) to slip in.
 */
const BUDGET_GZIP_KIB = 520;

/** Node's modules: a package that still reaches one is a gap for the browser, listed below. */
const NODE = /^(?:node:|(?:path|fs|url|util|crypto|stream|os|module|http|https|events|buffer|zlib)$)/;

const result = (await build(browserBundleConfig({ write: false }))) as Rolldown.RolldownOutput[];
const chunks = result.flatMap((r) => r.output).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
const code = chunks.map((c) => c.code).join('\n');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const gzip = gzipSync(code, { level: 9 }).length;
console.log(`membership-mock/msw/browser: ${kib(Buffer.byteLength(code))} minified, ${kib(gzip)} gzip`);
console.log(`budget: ${BUDGET_GZIP_KIB} KiB gzip: ${gzip <= BUDGET_GZIP_KIB * 1024 ? 'within' : 'OVER'}`);

// Each package's modules as rendered (tree-shaken, before minifying), and that code gzipped on its own.
const byPackage = new Map<string, string[]>();
for (const chunk of chunks)
  for (const [id, info] of Object.entries(chunk.modules)) {
    const inModules = id.split('node_modules/').pop()!;
    const name = id.includes('node_modules/')
      ? inModules
          .split('/')
          .slice(0, inModules.startsWith('@') ? 2 : 1)
          .join('/')
      : id.startsWith('\0')
        ? 'ajv (linear classes)'
        : 'membership-mock (mock/)';
    byPackage.set(name, [...(byPackage.get(name) ?? []), info.code ?? '']);
  }
const weights = [...byPackage].map(([name, parts]) => {
  const text = parts.join('\n');
  return { name, rendered: Buffer.byteLength(text), gzip: gzipSync(text).length };
});
console.log('heaviest (rendered before minifying; gzip of that code alone):');
for (const { name, rendered, gzip: alone } of weights.sort((a, b) => b.gzip - a.gzip).slice(0, 12))
  console.log(`  ${name.padEnd(34)} ${kib(rendered).padStart(8)} ${kib(alone).padStart(8)} gzip`);
// Imported, or required by a CommonJS package the bundler kept as a `require` that fails in a browser.
const imported = chunks.flatMap((c) => [...c.imports, ...c.dynamicImports]).filter((id) => NODE.test(id));
// (`x.require('util')`, lodash's look for Node's, runs only where a CommonJS `module` exists: not one.)
const required = [...code.matchAll(/(?<![.\w])require\(\s*["'`]((?:node:)?[a-z_]+)["'`]\s*\)/g)].map(([, id]) => id!);
const reached = [...new Set([...imported, ...required.filter((id) => NODE.test(id))])];
console.log(`Node modules still reached: ${reached.join(', ') || 'none'}`);
if (gzip > BUDGET_GZIP_KIB * 1024) process.exitCode = 1;
