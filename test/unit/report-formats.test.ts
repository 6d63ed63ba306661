import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, test } from 'vitest';
import { formatAs, reportHints } from '../../mock/verify/report-formats.js';
import type { VerifyReport, VerifyStep } from '../../mock/verify/verify-report.js';

const step = (status: number | null, violations: string[] = [], operationId = 'listPasses'): VerifyStep => ({
  operationId,
  method: 'GET',
  path: '/members/m1/passes',
  status,
  violations,
  ms: 12,
});

const report: VerifyReport = {
  steps: [
    { ...step(201, [], 'createPass'), method: 'POST' },
    step(200, ['body /data/0/status: must be equal to one of the allowed values', 'a <b> & "c" | d']),
    { ...step(null, ['no answer within 10000 ms'], 'deletePass'), method: 'DELETE', ms: 10_000 },
  ],
  violations: 3,
  requests: 3,
  skipped: [{ operationId: 'uploadPhoto', reason: 'needs a multipart/form-data body, which verify cannot make' }],
  baseUrl: 'https://staging.example.com',
  contract: { title: 'Membership API', version: '1.0.0' },
};

const withStatuses = (...statuses: (number | null)[]): VerifyReport => {
  const steps = statuses.map((status) => step(status, status === 200 ? [] : ['x']));
  const violations = steps.filter((s) => s.violations.length > 0).length;
  return { ...report, steps, requests: steps.length, violations };
};

describe('reportHints', () => {
  test('every answer 401 means missing credentials, and names --token', () => {
    expect(reportHints(withStatuses(401, 401, 401))).toEqual([
      expect.stringMatching(/^every answer was 401: .*--token/),
    ]);
  });

  test('every answer 403 means the credentials were refused', () => {
    expect(reportHints(withStatuses(403, 403))).toEqual([expect.stringMatching(/^every answer was 403/)]);
  });

  test('every answer 404 asks whether the base URL is the API root', () => {
    expect(reportHints(withStatuses(404, 404))).toEqual([
      "every answer was 404: is https://staging.example.com the API's root, with its path prefix (such as /v1)?",
    ]);
  });

  test('no answer at all asks whether the server is up', () => {
    expect(reportHints(withStatuses(null, null))).toEqual([expect.stringMatching(/^no request got an answer from/)]);
  });

  test('a mix of answers, or unanswered steps beside 401s, gives no hint but the 401s', () => {
    expect(reportHints(withStatuses(401, 200))).toEqual([]);
    expect(reportHints(withStatuses(401, null))).toEqual([expect.stringMatching(/^every answer was 401/)]);
    expect(reportHints({ ...report, steps: [] })).toEqual([]);
  });
});

describe('formatAs', () => {
  test('text is the readable report with the hints after it', () => {
    const text = formatAs('text', withStatuses(401, 401));
    expect(text.split('\n').at(-2)).toBe('1 operation, 2 requests, 2 violations, 1 skipped');
    expect(text.split('\n').at(-1)).toMatch(/^hint: every answer was 401/);
  });

  test('json carries a summary, the hints and every step', () => {
    const json = JSON.parse(formatAs('json', report));
    expect(json.summary).toEqual({ passed: false, operations: 3, requests: 3, violations: 3, skipped: 1 });
    expect(json.hints).toEqual([]);
    expect(json.steps).toHaveLength(3);
    expect(json.contract).toEqual({ title: 'Membership API', version: '1.0.0' });
  });

  test('junit is well-formed XML with a case per request, a failure per broken step and a skipped case', () => {
    const text = formatAs('junit', report);
    expect(XMLValidator.validate(text)).toBe(true);
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text).testsuites.testsuite;
    expect(suite).toMatchObject({
      name: 'Membership API 1.0.0',
      tests: '4',
      failures: '2',
      skipped: '1',
      time: '10.024',
    });
    const cases = suite.testcase as {
      classname: string;
      name: string;
      time: string;
      failure?: unknown;
      skipped?: unknown;
    }[];
    expect(cases.map((c) => [c.classname, c.name, c.time])).toEqual([
      ['createPass', 'POST /members/m1/passes → 201', '0.012'],
      ['listPasses', 'GET /members/m1/passes → 200', '0.012'],
      ['deletePass', 'DELETE /members/m1/passes → no answer', '10.000'],
      ['uploadPhoto', 'uploadPhoto', '0.000'],
    ]);
    expect(cases.map((c) => c.failure !== undefined)).toEqual([false, true, true, false]);
    expect(cases[1]!.failure).toMatchObject({
      message: '2 violations: body /data/0/status: must be equal to one of the allowed values',
      '#text': 'body /data/0/status: must be equal to one of the allowed values\na <b> & "c" | d',
    });
    expect(cases[3]!.skipped).toMatchObject({ message: expect.stringContaining('multipart/form-data') });
    expect(suite['system-out']).toBe('✗ 3 operations, 3 requests, 3 violations, 1 skipped');
  });

  test('junit stays well-formed with control characters in a violation', () => {
    const text = formatAs('junit', { ...report, steps: [step(200, ['bad \u0000\u001b byte'])] });
    expect(XMLValidator.validate(text)).toBe(true);
    expect(text).toContain('bad \ufffd\ufffd byte');
  });

  test('junit puts the hints in the suite output', () => {
    const text = formatAs('junit', withStatuses(401, 401));
    expect(XMLValidator.validate(text)).toBe(true);
    expect(text).toMatch(/<system-out>✗ 1 operation, 2 requests, 2 violations, 1 skipped\nhint: every answer was 401/);
  });

  test('markdown states the summary, tables the failures, folds the rest, and escapes table cells', () => {
    const text = formatAs('markdown', report);
    const lines = text.split('\n');
    expect(lines[0]).toBe('### verify: Membership API 1.0.0 at `https://staging.example.com`');
    expect(lines[2]).toBe('**✗ 3 operations, 3 requests, 3 violations, 1 skipped**');
    expect(text).toContain(
      '| ✗ | listPasses | GET | `/members/m1/passes` | 200 | body /data/0/status: must be equal to one of the ' +
        'allowed values<br>a &lt;b> & "c" \\| d |',
    );
    expect(text).toContain(
      '| ✗ | deletePass | DELETE | `/members/m1/passes` | no answer | no answer within 10000 ms |',
    );
    expect(text).toContain('<details><summary>1 request that kept the contract</summary>');
    expect(lines.at(-1)).toBe('- uploadPhoto skipped: needs a multipart/form-data body, which verify cannot make');
  });

  test('markdown of a clean run says so', () => {
    const clean = formatAs('markdown', { ...report, steps: [step(200)], violations: 0, requests: 1, skipped: [] });
    expect(clean.split('\n')[2]).toBe('**✓ 1 operation, 1 request, no violation**');
    expect(clean).not.toContain('| ✗ |');
  });
});
