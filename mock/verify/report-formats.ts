// A verification report for machines and CI pages: JSON, JUnit XML (test tabs of CI servers), Markdown (a
// GitHub job summary), beside the text a person reads (format-report.ts). Every format carries the same
// summary and the same hints.
import { markdownCell } from '../lib/escape.js';
import { junitXml, type JunitCase } from '../reports/junit.js';
import { counted } from '../lib/counted.js';
import { formatReport } from './format-report.js';
import type { VerifyReport, VerifyStep } from './verify-report.js';

/** The formats `verify --format` takes. */
export const REPORT_FORMATS = ['text', 'json', 'junit', 'markdown'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The counts every format states. */
export interface ReportSummary {
  passed: boolean;
  operations: number;
  requests: number;
  violations: number;
  skipped: number;
}

/** The counts of a report: it passed when no step broke the contract. */
export function summarize(report: VerifyReport): ReportSummary {
  return {
    passed: report.violations === 0,
    operations: new Set(report.steps.map((s) => s.operationId)).size,
    requests: report.requests,
    violations: report.violations,
    skipped: report.skipped.length,
  };
}

/**
 * What a report whose every answer looks alike most likely means: the server wanted credentials (all 401),
 * refused the ones sent (all 403), has its API elsewhere (all 404), or never answered.
 * @example reportHints(report) // ['every answer was 401: the server wants credentials. Pass --token …']
 */
export function reportHints(report: VerifyReport): string[] {
  const { steps } = report;
  if (steps.length === 0) return [];
  const where = report.baseUrl ?? 'the base URL';
  if (steps.every((s) => s.status === null))
    return [`no request got an answer from ${where}: is the server up, and is --base-url its address?`];
  const answered = steps.filter((s) => s.status !== null);
  const all = (status: number) => answered.length > 0 && answered.every((s) => s.status === status);
  if (all(401))
    return [
      'every answer was 401: the server wants credentials. Pass --token TOKEN (or MOCK_VERIFY_TOKEN), or ' +
        '--header "Name: value" for another scheme (missing --token?).',
    ];
  if (all(403))
    return ['every answer was 403: the server refused the credentials sent. Does the token have the rights?'];
  if (all(404)) return [`every answer was 404: is ${where} the API's root, with its path prefix (such as /v1)?`];
  return [];
}

/**
 * The report in one of the formats.
 * @example out(formatAs('junit', await verifyProvider({ baseUrl })))
 */
export function formatAs(format: ReportFormat, report: VerifyReport): string {
  switch (format) {
    case 'text':
      return [formatReport(report), ...reportHints(report).map((hint) => `hint: ${hint}`)].join('\n');
    case 'json':
      return JSON.stringify({ summary: summarize(report), hints: reportHints(report), ...report }, null, 2);
    case 'junit':
      return toJunit(report);
    case 'markdown':
      return toMarkdown(report);
  }
}

/** The summary in words: `✓ 7 operations, 8 requests, no violation` or `✗ … 3 violations`. */
function summaryLine(summary: ReportSummary): string {
  const skipped = summary.skipped ? `, ${summary.skipped} skipped` : '';
  const broken = summary.violations === 0 ? 'no violation' : counted(summary.violations, 'violation');
  return (
    `${summary.passed ? '✓' : '✗'} ${counted(summary.operations, 'operation')}, ` +
    `${counted(summary.requests, 'request')}, ${broken}${skipped}`
  );
}

function stepName(step: VerifyStep): string {
  return `${step.method} ${step.path} → ${step.status ?? 'no answer'}`;
}

/**
 * JUnit XML: a suite named after the contract, a test case per request (its class the operationId), a
 * failure per step that broke the contract (its violations in the text), a skipped case per operation verify
 * could not call, and the hints as the suite's system-out.
 */
function toJunit(report: VerifyReport): string {
  const name = report.contract ? `${report.contract.title} ${report.contract.version}` : 'contract';
  const cases: JunitCase[] = [
    ...report.steps.map((step) => ({
      classname: step.operationId,
      name: stepName(step),
      ms: step.ms ?? 0,
      ...(step.violations.length
        ? {
            failure: {
              message: `${counted(step.violations.length, 'violation')}: ${step.violations[0]}`,
              type: 'contract',
              text: step.violations.join('\n'),
            },
          }
        : {}),
    })),
    ...report.skipped.map(({ operationId, reason }) => ({
      classname: operationId,
      name: operationId,
      ms: 0,
      skipped: reason,
    })),
  ];
  const out = [summaryLine(summarize(report)), ...reportHints(report).map((h) => `hint: ${h}`)].join('\n');
  return junitXml('membership-mock verify', name, cases, out);
}

/**
 * Markdown for a CI job summary: the summary line, the hints, a table of the steps that failed, and the rest folded.
 */
function toMarkdown(report: VerifyReport): string {
  const summary = summarize(report);
  const title = report.contract ? `${report.contract.title} ${report.contract.version}` : 'the contract';
  const where = report.baseUrl ? ` at ${code(report.baseUrl)}` : '';
  const lines = [`### verify: ${title}${where}`, '', `**${summaryLine(summary)}**`, ''];
  for (const hint of reportHints(report)) lines.push(`> hint: ${hint}`, '');
  const row = (step: VerifyStep) =>
    `| ${step.violations.length ? '✗' : '✓'} | ${markdownCell(step.operationId)} | ${step.method} | ${code(step.path)} | ` +
    `${step.status ?? 'no answer'} | ${step.violations.map(markdownCell).join('<br>') || ''} |`;
  const header = ['| | operation | method | path | status | violations |', '|---|---|---|---|---|---|'];
  const failed = report.steps.filter((s) => s.violations.length > 0);
  if (failed.length) lines.push(...header, ...failed.map(row), '');
  const passed = report.steps.filter((s) => s.violations.length === 0);
  if (passed.length)
    lines.push(
      `<details><summary>${counted(passed.length, 'request')} that kept the contract</summary>`,
      '',
      ...header,
      ...passed.map(row),
      '',
      '</details>',
      '',
    );
  for (const { operationId, reason } of report.skipped)
    lines.push(`- ${markdownCell(operationId)} skipped: ${markdownCell(reason)}`);
  return lines.join('\n').trimEnd();
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}
