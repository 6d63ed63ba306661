// The package as a team installs it: packed, installed into an empty project beside nothing of ours, and the
// code recipes of the README and of mock/docs/*.md (each a whole test file) type-checked (TypeScript strict, no
// skipLibCheck) and run with vitest there. Then the same project with the package linked to this folder (what
// `npm link` or a folder install gives), where the matchers' types once attached to the wrong copy of vitest.
// The docs are this test's source: a recipe that stops compiling or passing fails `npm test`. Needs the npm
// registry, or an npm cache that holds the versions this project uses (npm ci fills it). Reads `dist/`: `npm test`
// builds it first.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../support/free-port.js';
import { cleanEnv, pack, ROOT, sh } from '../support/package-tools.js';

const MINUTES = 60_000;

/**
 * The TypeScript blocks of a Markdown document, each a file of the project named by its first line: a test file
 * (`// test/first.test.ts`), or one a recipe needs (`// vitest.config.ts`, `// test/global-setup.ts`).
 */
export function markdownFiles(markdown: string, name = 'README.md'): { file: string; code: string }[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(([, code]) => {
    const file = /^\/\/ ((?:test\/)?[\w-]+(?:\.[\w-]+)*\.ts)\b/.exec(code!)?.[1];
    if (!file) throw new Error(`A ts block of ${name} must start with "// test/NAME.test.ts" or its file:\n${code}`);
    return { file, code: code! };
  });
}

/**
 * The blocks of any language a document marks with the file they are (`<!-- file: PATH -->` on the line before,
 * a blank line between): a config file or a contract a recipe reads, written into the project as they are.
 */
export function markedFiles(markdown: string): { file: string; code: string }[] {
  return [...markdown.matchAll(/^<!-- file: ([\w./-]+) -->\n\n```\w*\n([\s\S]*?)^```$/gm)].map(([, file, code]) => ({
    file: file!,
    code: code!,
  }));
}

/** The documents whose blocks are run: the README, then every Markdown file of mock/docs/, by name. */
async function documents(): Promise<string[]> {
  const docs = (await readdir(join(ROOT, 'mock/docs'))).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => `mock/docs/${name}`)];
}

/** The version of a package this project has installed: the consumer gets the same, from the npm cache. */
async function versionOf(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
  return `${name}@${manifest.version as string}`;
}

let work: string;
let project: string;
let cli: ChildProcess | undefined;
let mockUrl: string;
const files: { file: string; code: string }[] = [];
const marked: { file: string; code: string }[] = [];
for (const name of await documents()) {
  const text = await readFile(join(ROOT, name), 'utf8');
  files.push(...markdownFiles(text, name));
  marked.push(...markedFiles(text));
}
const recipes = files.filter((f) => f.file.endsWith('.test.ts'));
/**
 * Not a recipe: `inject('mockUrl')` compiles, and is a string, only with the ProvidedContext that
 * `membership-mock/vitest` declares. From the tarball alone: linked, the declaration lands on the clone's own vitest
 * whenever its peers differ from the project's (mock/docs/recipes.md says what to do then).
 */
const PROVIDED = {
  file: 'test/provided-context.ts',
  code: `import { inject } from 'vitest';
import 'membership-mock/vitest';

export const mockUrl = (): string => inject('mockUrl');
// @ts-expect-error: the package provides no other name.
export const other = () => inject('mockURL');
`,
};

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/mock/index.js'))) throw new Error('dist/ is missing: run `npm run build` first.');
  work = await mkdtemp(join(tmpdir(), 'membership-mock-consumer-'));
  project = join(work, 'app');
  await mkdir(join(project, 'test'), { recursive: true });
  const tarball = await pack(ROOT, work);
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'front-end-app', private: true, type: 'module' }, null, 2),
  );
  // A front-end project's settings: strict, the DOM's fetch and crypto, and no types but those imported, so
  // every type the package's declarations name must come with the package.
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: [],
          strict: true,
          skipLibCheck: false,
          noEmit: true,
        },
        include: ['test', 'vitest.config.ts'],
      },
      null,
      2,
    ),
  );
  const tools = await Promise.all(
    ['vitest', 'typescript', 'openapi-fetch', 'supertest', '@types/supertest', 'msw'].map(versionOf),
  );
  await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...tools], project);
  for (const { file, code } of [...files, ...marked, PROVIDED]) {
    await mkdir(join(project, file, '..'), { recursive: true });
    await writeFile(join(project, file), code);
  }
  // The recipes against a mock in another process find it at MOCK_URL: the installed command line's.
  const port = await freePort();
  mockUrl = `http://127.0.0.1:${port}`;
  cli = spawn(join(project, 'node_modules/.bin/membership-mock'), ['--port', String(port), '--log', 'off'], {
    cwd: project,
    env: cleanEnv(),
    stdio: 'ignore',
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`${mockUrl}/__mock/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || cli.exitCode !== null) throw new Error('the installed membership-mock did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 10 * MINUTES);

afterAll(async () => {
  cli?.kill();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Type-checks the recipes, then runs them; resolves with vitest's JSON report. */
async function checkRecipes() {
  await sh('npx', ['tsc', '-p', '.'], project);
  const report = join(work, `report-${Date.now()}.json`);
  await sh(
    'npx',
    ['vitest', 'run', '--reporter=json', `--outputFile=${report}`],
    project,
    cleanEnv({ MOCK_URL: mockUrl }),
  );
  return JSON.parse(await readFile(report, 'utf8')) as {
    numFailedTests: number;
    numPassedTests: number;
    testResults: { name: string; status: string }[];
  };
}

describe('the package installed in a front-end project', () => {
  test('the README and the docs have a recipe for each part of the test API, each file once', () => {
    expect(files.map((r) => r.file)).toEqual(
      expect.arrayContaining([
        'test/first.test.ts',
        'test/sent.test.ts',
        'test/session.test.ts',
        'vitest.config.ts',
        'test/global-setup.ts',
        'test/several-apis.test.ts',
      ]),
    );
    expect(new Set(files.map((r) => r.file)).size).toBe(files.length);
  });

  test(
    'from its tarball, every recipe of the README and the docs compiles under strict TypeScript and passes, and inject("mockUrl") is a string',
    async () => {
      const report = await checkRecipes();
      expect(report.testResults.map((r) => [r.name.slice(project.length + 1), r.status]).sort()).toEqual(
        recipes.map((r) => [r.file, 'passed']).sort(),
      );
      expect(report.numFailedTests).toBe(0);
      // The coverage recipe's global setup wrote its report when the run ended.
      expect(await readFile(join(project, 'reports/api-coverage.md'), 'utf8')).toMatch(
        /^### API coverage: Membership Passes and Credentials API 1\.0\.0\n\n\*\*✓ [1-9]\d* of 7 operations called/,
      );
      const pact = JSON.parse(await readFile(join(project, 'pacts/web-app-membership.json'), 'utf8'));
      expect(pact.metadata.pactSpecification.version).toBe('3.0.0');
      expect(pact.interactions.length).toBeGreaterThan(0);
    },
    5 * MINUTES,
  );

  test('the installed command reads the config file of the folder it runs in: both APIs of the README served', async () => {
    expect(marked.map((m) => m.file).sort()).toEqual([
      'contracts/payments.openapi.yaml',
      'membership-mock.config.json',
    ]);
    const created = await fetch(`${mockUrl}/payments/charges`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"amount":700}',
    });
    expect([created.status, ((await created.json()) as { amount: number }).amount]).toEqual([201, 700]);
    const passes = await fetch(`${mockUrl}/members/m1/passes`, { headers: { Authorization: 'Bearer t' } });
    expect(passes.status).toBe(200);
    const coverage = (await (await fetch(`${mockUrl}/__mock/coverage?api=payments`)).json()) as {
      contract: { title: string };
      summary: { operations: number };
    };
    expect([coverage.contract.title, coverage.summary.operations]).toEqual(['Payments', 3]);
  });

  test(
    'linked to this folder, as npm link leaves it, the recipes still compile and pass',
    async () => {
      const installed = join(project, 'node_modules/membership-mock');
      await rm(installed, { recursive: true, force: true });
      await rm(join(project, PROVIDED.file));
      await symlink(ROOT, installed, 'dir');
      const report = await checkRecipes();
      expect(report.testResults.map((r) => [r.name.slice(project.length + 1), r.status]).sort()).toEqual(
        recipes.map((r) => [r.file, 'passed']).sort(),
      );
      expect(report.numFailedTests).toBe(0);
    },
    5 * MINUTES,
  );
});
