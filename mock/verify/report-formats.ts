// A verification report for machines and CI pages: JSON, JUnit XML (test tabs of CI servers), Markdown (a
// GitHub job summary), beside the text a person reads (format-report.ts). Every format carries the same
// summary and the same hints.
import { markdownCell, xmlEscape } from '../reply/escape.js';
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
  const broken = summary.violations === 0 ? 'no violation' : plural(summary.violations, 'violation');
  return (
    `${summary.passed ? '✓' : '✗'} ${plural(summary.operations, 'operation')}, ` +
    `${plural(summary.requests, 'request')}, ${broken}${skipped}`
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
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
  const summary = summarize(report);
  const name = report.contract ? `${report.contract.title} ${report.contract.version}` : 'contract';
  const failures = report.steps.filter((s) => s.violations.length > 0).length;
  const seconds = (ms = 0) => (ms / 1000).toFixed(3);
  const total = report.steps.reduce((sum, s) => sum + (s.ms ?? 0), 0);
  const cases = report.steps.map((step) => {
    const head = `    <testcase classname="${xmlEscape(step.operationId)}" name="${xmlEscape(stepName(step))}" time="${seconds(step.ms)}"`;
    if (step.violations.length === 0) return `${head}/>`;
    const message = `${plural(step.violations.length, 'violation')}: ${step.violations[0]}`;
    return (
      `${head}>\n      <failure message="${xmlEscape(message)}" type="contract">${xmlEscape(step.violations.join('\n'))}</failure>\n` +
      '    </testcase>'
    );
  });
  const skipped = report.skipped.map(
    ({ operationId, reason }) =>
      `    <testcase classname="${xmlEscape(operationId)}" name="${xmlEscape(operationId)}" time="0.000">\n` +
      `      <skipped message="${xmlEscape(reason)}"/>\n    </testcase>`,
  );
  const hints = reportHints(report);
  const out = [summaryLine(summary), ...hints.map((h) => `hint: ${h}`)].join('\n');
  const counts = `tests="${report.steps.length + report.skipped.length}" failures="${failures}" errors="0"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="membership-mock verify" ${counts} skipped="${summary.skipped}" time="${seconds(total)}">`,
    `  <testsuite name="${xmlEscape(name)}" ${counts} skipped="${summary.skipped}" time="${seconds(total)}">`,
    ...cases,
    ...skipped,
    `    <system-out>${xmlEscape(out)}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');
}

/** Markdown for a CI job summary: the summary line, the hints, a table of the steps that failed, and the rest folded. */
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
      `<details><summary>${plural(passed.length, 'request')} that kept the contract</summary>`,
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
