// Coverage for a CI page: Markdown (a job summary), JUnit XML (a test tab), and a threshold that fails the run.
import { markdownCell } from '../lib/escape.js';
import { counted } from '../lib/counted.js';
import { junitXml, type JunitCase } from './junit.js';
import type { Coverage, OperationCoverage } from './coverage.js';

/** What a run must reach; each field left out is not checked. */
export interface CoverageThreshold {
  /** The share of operations called at least once, 0 to 1 (`1`: every operation). */
  operations?: number;
  /** The share of documented response codes some answer fell under, 0 to 1. */
  statuses?: number;
  /** The most calls whose request may break the contract (`0`: none may). */
  violations?: number;
}

/**
 * Where the threshold is not met: one message each, empty when it is.
 * @example checkCoverage(mock.coverage(), { operations: 1 }) // ['2 of 7 operations were never called: getPass,
 * deletePass']
 */
export function checkCoverage(coverage: Coverage, threshold: CoverageThreshold): string[] {
  const failures: string[] = [];
  const { summary } = coverage;
  const share = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);
  if (threshold.operations !== undefined && share(summary.called, summary.operations) < threshold.operations) {
    const never = coverage.operations.filter((o) => o.calls === 0).map((o) => o.operationId);
    failures.push(
      `${percent(summary.called, summary.operations)} of operations were called, below ${Math.round(threshold.operations * 100)}%; ` +
        `never called: ${never.join(', ')}`,
    );
  }
  if (threshold.statuses !== undefined && share(summary.statusesSeen, summary.statuses) < threshold.statuses)
    failures.push(
      `${percent(summary.statusesSeen, summary.statuses)} of documented statuses were seen, below ` +
        `${Math.round(threshold.statuses * 100)}%`,
    );
  if (threshold.violations !== undefined && summary.callsWithViolations > threshold.violations)
    failures.push(
      `${counted(summary.callsWithViolations, 'call')} broke the contract, more than the ${threshold.violations} allowed: ` +
        coverage.operations
          .flatMap((o) => o.violations.map((v) => `${v.callId} ${o.operationId} (${v.messages[0]})`))
          .slice(0, 5)
          .join('; '),
    );
  return failures;
}

function percent(part: number, whole: number): string {
  return `${part} of ${whole} (${whole === 0 ? 100 : Math.floor((part / whole) * 100)}%)`;
}

/** One line: `5 of 7 operations called, 9 of 40 documented statuses seen, 0 calls broke the contract`. */
export function coverageSummary(coverage: Coverage): string {
  const { summary } = coverage;
  return (
    `${summary.called} of ${counted(summary.operations, 'operation')} called, ` +
    `${summary.statusesSeen} of ${counted(summary.statuses, 'documented status', 'documented statuses')} seen, ` +
    `${summary.callsWithViolations} of ${counted(summary.calls, 'call')} broke the contract`
  );
}

/** Markdown: a heading, the summary, and a table of the operations (never called first). */
export function coverageMarkdown(coverage: Coverage, failures: string[] = []): string {
  const lines = [
    `### API coverage: ${markdownCell(coverage.contract.title)} ${markdownCell(coverage.contract.version)}`,
    '',
    `**${failures.length ? '✗' : '✓'} ${coverageSummary(coverage)}**`,
    '',
    ...failures.map((f) => `> ✗ ${markdownCell(f)}`),
    ...(failures.length ? [''] : []),
    '| operation | calls | statuses seen | never seen | fields never sent | broke the contract |',
    '|---|---|---|---|---|---|',
    ...[...coverage.operations].sort((a, b) => Number(a.calls > 0) - Number(b.calls > 0)).map(row),
  ];
  return lines.join('\n');
}

/** The statuses answered, with how many times: `dropped ×1, 200 ×3`. */
function seenText(o: OperationCoverage): string {
  return Object.entries(o.statuses.seen)
    .map(([status, n]) => `${status === '0' ? 'dropped' : status} ×${n}`)
    .join(', ');
}

function row(o: OperationCoverage): string {
  const seen = seenText(o);
  const never = [...o.query.never.map((q) => `?${q}`), ...o.body.never].join(', ');
  return (
    `| ${o.calls ? '' : '✗ '}\`${o.method} ${markdownCell(o.path)}\` ${markdownCell(o.operationId)} | ${o.calls} | ${seen || '—'} | ` +
    `${o.statuses.unseen.join(', ') || '—'} | ${markdownCell(never) || '—'} | ${o.violationCount || '—'} |`
  );
}

/**
 * JUnit XML: a test case per operation. One never called is skipped, one whose calls broke the contract
 * fails with them, and the threshold's failures are one more failing case.
 */
export function coverageJunit(coverage: Coverage, failures: string[] = []): string {
  const cases: JunitCase[] = coverage.operations.map((o) => ({
    classname: 'api-coverage',
    name: `${o.operationId} (${o.method} ${o.path})`,
    ...(o.calls === 0
      ? { skipped: 'never called' }
      : {
          out: `statuses seen: ${seenText(o)}; never seen: ${o.statuses.unseen.join(', ') || 'none'}`,
          ...(o.violationCount > 0
            ? {
                failure: {
                  message: `${counted(o.violationCount, 'call')} broke the contract`,
                  type: 'contract',
                  text: o.violations.map((v) => `${v.callId}: ${v.messages.join('; ')}`).join('\n'),
                },
              }
            : {}),
        }),
  }));
  if (failures.length)
    cases.push({
      classname: 'api-coverage',
      name: 'threshold',
      failure: { message: failures[0]!, type: 'threshold', text: failures.join('\n') },
    });
  const suite = `${coverage.contract.title} ${coverage.contract.version}`;
  return junitXml('API coverage', suite, cases, coverageSummary(coverage));
}
