// Which requests go upstream and when the mock answers instead: the proxy's rules, without a network.
import { describe, expect, test } from 'vitest';
import { compileProxyRules } from '../../mock/respond/proxy-rules.js';

const IDS = ['listPasses', 'createPass', 'getPass'];
const URL_ = 'http://127.0.0.1:8080/api';

describe('compileProxyRules', () => {
  test('auto falls back on 501, and on a 404 or 405 the contract does not describe; never on a described one', () => {
    const rules = compileProxyRules({ url: URL_ }, IDS);
    expect(rules.fallsBackOn(501, true)).toBe(true);
    expect(rules.fallsBackOn(404, false)).toBe(true);
    expect(rules.fallsBackOn(405, false)).toBe(true);
    expect(rules.fallsBackOn(404, true)).toBe(false);
    expect(rules.fallsBackOn(500, false)).toBe(false);
    expect(rules.fallsBackOn(200, false)).toBe(false);
    expect(rules.fallsBackOnFailure).toBe(true);
  });

  test('a list falls back on its statuses alone, described or not; off never falls back', () => {
    const listed = compileProxyRules({ url: URL_, fallback: [404, 503] }, IDS);
    expect([404, 503, 501].map((s) => listed.fallsBackOn(s, true))).toEqual([true, true, false]);
    expect(listed.fallsBackOnFailure).toBe(true);
    const off = compileProxyRules({ url: URL_, fallback: 'off' }, IDS);
    expect([501, 404].map((s) => off.fallsBackOn(s, false))).toEqual([false, false]);
    expect(off.fallsBackOnFailure).toBe(false);
  });

  test('mockOnly and proxyOnly pick the operations that go upstream', () => {
    const except = compileProxyRules({ url: URL_, mockOnly: ['createPass'] }, IDS);
    expect(IDS.map((id) => except.proxies(id))).toEqual([true, false, true]);
    const only = compileProxyRules({ url: URL_, proxyOnly: ['getPass'] }, IDS);
    expect(IDS.map((id) => only.proxies(id))).toEqual([false, false, true]);
  });

  test('errors refuses invalid requests instead of forwarding them; passthrough and recordState default as documented', () => {
    expect(compileProxyRules({ url: URL_ }, IDS)).toMatchObject({
      forwardsInvalid: true,
      passthrough: true,
      recordState: false,
    });
    expect(compileProxyRules({ url: URL_ }, IDS, { errors: true }).forwardsInvalid).toBe(false);
  });

  test.each([
    [{ url: 'localhost:8080' }, /absolute http or https URL: did you mean http:\/\/localhost:8080\?/],
    [{ url: 'not a url' }, /absolute http or https URL, such as/],
    [{ url: 'file:///etc/passwd' }, /must be http or https, not file/],
    [{ url: 'http://a.example/?token=1' }, /may not have a query or fragment/],
    [{ url: URL_, timeout: 0 }, /timeout must be a whole number of milliseconds from 1 to 600000/],
    [{ url: URL_, fallback: [99] }, /backend's failures, from 400 to 599, not 99/],
    // A success is the backend's answer: falling back on it would hide the backend the proxy exists to reach.
    [{ url: URL_, fallback: [200] }, /backend's failures, from 400 to 599, not 200/],
    [{ url: URL_, fallback: [404, 302] }, /backend's failures, from 400 to 599, not 302/],
    [
      { url: URL_, proxyOnly: ['getpass'] },
      /proxyOnly: "getpass" is not an operationId of the contract\. Did you mean getPass\?/,
    ],
    [{ url: URL_, headers: { 'Bad Name': 'x' } }, /not a valid HTTP header/],
    [{ url: URL_, headers: { Connection: 'close' } }, /set by the proxy itself/],
    [{ url: URL_, headers: { 'X-Token': 'a\nb' } }, /not a valid HTTP header/],
  ])('refuses %j', (options, message) => {
    expect(() => compileProxyRules(options as never, IDS)).toThrow(message);
  });

  test("header names are kept in lower case, so one replaces the client's whatever its case", () => {
    expect(compileProxyRules({ url: URL_, headers: { Authorization: 'Bearer up' } }, IDS).headers).toEqual({
      authorization: 'Bearer up',
    });
  });
});
