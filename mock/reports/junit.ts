// JUnit XML, the test-report format CI servers read (GitLab's test tab, Jenkins, GitHub actions that annotate):
// one writer for verify's report and the coverage report, so both count and escape alike.
import { xmlEscape } from '../lib/escape.js';

/** One test case: passed, failed (`failure`), or skipped (`skipped`, its reason). */
export interface JunitCase {
  classname: string;
  name: string;
  /** Milliseconds; left out when unknown. */
  ms?: number;
  failure?: { message: string; type: string; text: string };
  skipped?: string;
  /** Text the case printed (`system-out`). */
  out?: string;
}

/**
 * A report of one suite in a `testsuites` element, its counts taken from the cases.
 * @example junitXml('API coverage', 'Membership API 1.0.0', cases, '3 of 7 operations called')
 */
export function junitXml(suites: string, suite: string, cases: JunitCase[], out: string): string {
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped !== undefined && !c.failure).length;
  const timed = cases.some((c) => c.ms !== undefined);
  const time = timed ? ` time="${seconds(cases.reduce((sum, c) => sum + (c.ms ?? 0), 0))}"` : '';
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"${time}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suites)}" ${counts}>`,
    `  <testsuite name="${xmlEscape(suite)}" ${counts}>`,
    ...cases.map(testcase),
    `    <system-out>${xmlEscape(out)}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');
}

function testcase(c: JunitCase): string {
  const time = c.ms === undefined ? '' : ` time="${seconds(c.ms)}"`;
  const head = `    <testcase classname="${xmlEscape(c.classname)}" name="${xmlEscape(c.name)}"${time}`;
  const inner = [
    c.failure
      ? `      <failure message="${xmlEscape(c.failure.message)}" type="${xmlEscape(c.failure.type)}">` +
        `${xmlEscape(c.failure.text)}</failure>`
      : c.skipped !== undefined
        ? `      <skipped message="${xmlEscape(c.skipped)}"/>`
        : '',
    c.out === undefined ? '' : `      <system-out>${xmlEscape(c.out)}</system-out>`,
  ].filter(Boolean);
  return inner.length ? `${head}>\n${inner.join('\n')}\n    </testcase>` : `${head}/>`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
