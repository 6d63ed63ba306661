// Builds `membership-mock/msw/browser` (mock/msw-browser.ts) into dist/browser/msw.js: one ES module, minified,
// everything in it but msw (the app's own, a peer dependency). Part of `npm run build`; the bundle bench
// (test/bench/msw-bundle.ts) builds with the same configuration. Prism's modules are resolved as Prism resolves
// them, and Prism's `ajv`s are given classes that compile patterns in linear time (mock/browser/linear-ajv.ts):
// the ajv instances Prism makes when it loads are then linear, as node/prism-modules.ts makes them in Node.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
/** Resolves as Prism does, from its own package: its dependencies, not the mock's. */
const fromPrism = createRequire(require.resolve('@stoplight/prism-http/package.json'));
const LINEAR_AJV = fileURLToPath(new URL('../mock/browser/linear-ajv.ts', import.meta.url));
/** The ajv modules Prism requires, and the name of the class each exports. */
const AJV = { ajv: 'Ajv', 'ajv/dist/2019': 'Ajv2019', 'ajv/dist/2020': 'Ajv2020' };
const LINEAR = '\0linear-ajv:';
/**
 * Modules that use Node's global `Buffer`, unguarded: Prism's Basic-auth check and multipart body reader, and the
 * multipart parser it calls. A browser has no `Buffer`: they are given the `buffer` package's (its API, on Uint8Array).
 */
const USES_BUFFER = [
  '/node_modules/@stoplight/prism-http/dist/validator/validators/security/handlers/basicAuth.js',
  '/node_modules/@stoplight/prism-http/dist/validator/validators/body.js',
  '/node_modules/parse-multipart-data/',
];
const BUFFER = JSON.stringify(require.resolve('buffer/'));
const NO_MIME_NAMES = '\0no-mime-names';

/** Prism's `ajv`, `ajv/dist/2019` and `ajv/dist/2020`, each as itself with a linear-pattern class for default. */
function linearAjv() {
  return {
    name: 'membership-mock:linear-ajv',
    enforce: 'pre',
    resolveId(source, importer) {
      if (Object.hasOwn(AJV, source)) return LINEAR + source;
      // Prism's ajv-formats (2.x), not the mock's.
      if (source === 'ajv-formats') return fromPrism.resolve('ajv-formats');
      // type-is (Prism's body validator) looks a name up in mime-types only when it has no `/` (`json`); Prism
      // gives it whole media types. mime-types would bring mime-db (200 KB) and Node's `path`.
      if (source === 'mime-types' && importer?.includes('/node_modules/type-is/')) return NO_MIME_NAMES;
      return undefined;
    },
    transform(code, id) {
      if (USES_BUFFER.some((path) => id.includes(path))) {
        if (!/\bBuffer\.from\(/.test(code)) throw new Error(`${id} no longer uses Buffer: drop it from USES_BUFFER`);
        return `var Buffer = require(${BUFFER}).Buffer;\n${code}`;
      }
      // uri-template-lite (Prism's path templates) sets `this.URI`, `this` being `exports` in CommonJS: a bundler
      // that reads the file as a module has no `this` there.
      if (!id.includes('/node_modules/uri-template-lite/')) return undefined;
      const made = code.replace('(this.URI || (this.URI = {}))', '(exports.URI || (exports.URI = {}))');
      if (made === code) throw new Error(`uri-template-lite changed: ${id} no longer sets this.URI as expected`);
      return made;
    },
    load(id) {
      if (id === NO_MIME_NAMES) return 'export const lookup = () => false;';
      if (!id.startsWith(LINEAR)) return undefined;
      const name = id.slice(LINEAR.length);
      const file = JSON.stringify(fromPrism.resolve(name));
      return [
        `import * as real from ${file};`,
        `import { withLinearPatterns } from ${JSON.stringify(LINEAR_AJV)};`,
        `export * from ${file};`,
        `export default withLinearPatterns(real.${AJV[name]});`,
      ].join('\n');
    },
  };
}

/**
 * Vite's configuration of the browser bundle.
 * @param {{ write?: boolean }} options `write: false` builds in memory (the bench)
 * @returns {import('vite').InlineConfig}
 */
export function browserBundleConfig({ write = true } = {}) {
  return {
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    plugins: [linearAjv()],
    build: {
      write,
      outDir: 'dist/browser',
      emptyOutDir: true,
      minify: true,
      target: 'es2022',
      lib: { entry: 'mock/msw-browser.ts', formats: ['es'], fileName: () => 'msw.js' },
      rollupOptions: {
        external: (id) => id === 'msw' || id.startsWith('msw/'),
        // Vite minifies an ES library but its white space; an app's bundler keeps what it is given.
        output: { minify: true },
      },
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { build } = await import('vite');
  await build(browserBundleConfig());
}
