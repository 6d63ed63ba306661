// One mock for a whole vitest run, and its coverage report when the run ends: a `globalSetup` file's default
// export. It needs nothing of vitest's (so it works whichever copy a project has): vitest calls it, and calls
// what it returns when every test file is done.
import { join } from 'node:path';
import type { ServerOptions } from '../instance/options.js';
import { counted } from '../lib/counted.js';
import { writeReport, type JoinReport } from '../node/write-report.js';
import { mergePacts } from '../reports/merge-pacts.js';
import type { Pact, PactParties } from '../reports/pact.js';
import { startMock } from '../server.js';
import {
  checkCoverage,
  coverageJunit,
  coverageMarkdown,
  coverageSummary,
  type CoverageThreshold,
} from '../reports/coverage-report.js';

/**
 * Where the coverage goes when the run ends, and what it must reach. Each file is written over, once a run: a
 * local run never adds to the last one's.
 */
export interface CoverageOutput {
  /**
   * A Markdown file; `process.env.GITHUB_STEP_SUMMARY` on GitHub Actions, which is appended to, as GitHub asks.
   * Another mock of the same run (a second vitest project's global setup) adds its table below.
   */
  markdown?: string;
  /** A JUnit XML file, written over (by the last mock of the run, when it has several). */
  junit?: string;
  /** The coverage as JSON (what `GET /__mock/coverage` answers), written over as the JUnit file is. */
  json?: string;
  /** Fails the run when not met (exit code 1, naming what is missing on stderr). @default none */
  threshold?: CoverageThreshold;
}

/** startMock's options, the coverage report's, and the Pact file's. */
export interface MockSetupOptions extends ServerOptions {
  coverage?: CoverageOutput;
  /**
   * Writes the run's calls as a Pact v3 file, `DIR/CONSUMER-PROVIDER.json`, when the run ends: over the last
   * run's, merged with what another mock of the same run wrote there (a second vitest project). @default none
   */
  pact?: PactParties & { dir?: string };
}

/**
 * A vitest `globalSetup`: starts a mock before the first test file, gives its URL to the tests
 * (`process.env.MOCK_URL`, and `inject('mockUrl')`), and when the run ends writes its coverage, prints one
 * summary line, stops it, and fails the run (exit code 1, the failures on stderr) when the threshold is not
 * met. It sets `MOCK_URL` even when one is set already: the tests then use the mock whose coverage is written.
 * @example
 * // test/global-setup.ts, named in vitest.config.ts: test: { globalSetup: ['test/global-setup.ts'] }
 * export default mockGlobalSetup({ coverage: { markdown: 'reports/api-coverage.md', threshold: { operations: 1 } } });
 */
export function mockGlobalSetup(options: MockSetupOptions = {}) {
  const { coverage: output = {}, pact, ...serverOptions } = options;
  return async (project?: { provide?: (key: string, value: unknown) => void }) => {
    const mock = await startMock(serverOptions);
    process.env.MOCK_URL = mock.url;
    project?.provide?.('mockUrl', mock.url);
    return async () => {
      try {
        const coverage = mock.coverage();
        const failures = output.threshold ? checkCoverage(coverage, output.threshold) : [];
        // A second mock of the run (another vitest project) puts its table below the first's.
        const below: JoinReport = (earlier, text) => `${earlier}\n\n${text}`;
        if (output.markdown) await writeReport(output.markdown, coverageMarkdown(coverage, failures), below);
        if (output.junit) await writeReport(output.junit, coverageJunit(coverage, failures));
        if (output.json) await writeReport(output.json, JSON.stringify({ ...coverage, failures }, null, 2));
        console.log(`membership-mock: API coverage: ${coverageSummary(coverage)}`);
        if (pact) {
          const { dir = 'pacts', ...parties } = pact;
          const file = join(dir, `${parties.consumer}-${parties.provider}.json`);
          let written = mock.pact(parties);
          const how = await writeReport(file, JSON.stringify(written, null, 2), (earlier) => {
            written = mergePacts(JSON.parse(earlier) as Pact, written);
            return JSON.stringify(written, null, 2);
          });
          const joined = how === 'joined' ? ", with the run's other mocks'" : '';
          console.log(
            `membership-mock: wrote the pact ${file}: ${counted(written.interactions.length, 'interaction')}${joined}`,
          );
        }
        if (failures.length) {
          // Vitest logs an error thrown by a global teardown but still exits 0: the exit code is set instead.
          console.error(
            `membership-mock: API coverage below the threshold:\n${failures.map((f) => `- ${f}`).join('\n')}`,
          );
          process.exitCode = 1;
        }
      } finally {
        await mock.close();
      }
    };
  };
}
