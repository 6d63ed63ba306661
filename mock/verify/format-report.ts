// Turns a verification report into lines a person reads: one per request, its violations under it, a summary.
import { counted } from '../lib/counted.js';
import type { VerifyReport } from './verify-report.js';

/**
 * One line per step (✓ or ✗, method, path, status, operationId) with each violation indented under it,
 * the skipped operations, and a summary line.
 * @example console.log(formatReport(await verifyProvider({ baseUrl: 'http://127.0.0.1:8080' })))
 */
export function formatReport(report: VerifyReport): string {
  const methodWidth = Math.max(0, ...report.steps.map((s) => s.method.length));
  const pathWidth = Math.max(0, ...report.steps.map((s) => s.path.length));
  const lines: string[] = [];
  for (const step of report.steps) {
    const mark = step.violations.length === 0 ? '✓' : '✗';
    const status = step.status === null ? '---' : String(step.status);
    lines.push(
      `${mark} ${step.method.padEnd(methodWidth)} ${step.path.padEnd(pathWidth)} ${status} ${step.operationId}`,
    );
    for (const violation of step.violations) lines.push(`    ${violation}`);
  }
  for (const { operationId, reason } of report.skipped) lines.push(`- ${operationId} skipped: ${reason}`);
  const operations = new Set(report.steps.map((s) => s.operationId)).size;
  const skipped = report.skipped.length ? `, ${counted(report.skipped.length, 'skipped', 'skipped')}` : '';
  lines.push(
    `${counted(operations, 'operation')}, ${counted(report.requests, 'request')}, ` +
      `${counted(report.violations, 'violation')}${skipped}`,
  );
  return lines.join('\n');
}
