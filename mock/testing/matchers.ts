// vitest matchers over recorded calls: toHaveReceived, toHaveReceivedTimes, toHaveReceivedInOrder. They
// work on an in-process mock (synchronously) and on a remote one (await them).
import type { CallRecord } from '../journal/journal.js';
import { describeMatch, explainMisses } from '../journal/wait-for-call.js';
import { checkCallMatch, matchesCall, type CallMatch } from '../journal/call-match.js';

/** Anything that can list its calls: `createApp()`, `startMock()`, or `connectMock()` (asynchronously). */
export interface CallSource {
  /** Throws (or rejects) for an operationId its contract lacks. */
  calls(filter?: { operationId?: string }): CallRecord[] | Promise<CallRecord[]>;
}

// Re-exported so that every import of the matchers brings their types (the global augmentation) along.
export type { OrderedStep } from './matcher-types.js';

/** What to expect of a call, after its operationId. */
export type ExpectedCall = Omit<CallMatch, 'operationId'>;

/** A step of toHaveReceivedInOrder, untyped: an operationId, or a match with one. */
type OrderedCall = string | (CallMatch & { operationId: string });

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/**
 * The matchers, for `expect.extend(mockMatchers)` (done for you by `import 'membership-mock/vitest'`). A
 * match that names a field or an operationId the contract lacks throws rather than match nothing.
 * @example expect(mock).toHaveReceived('createCredential', { pathParams: { member_id: 'm1' }, body: { kind: 'pin' } });
 */
export const mockMatchers = {
  toHaveReceived(received: CallSource, operationId: string, expected: ExpectedCall = {}) {
    const match = { ...expected, operationId };
    return withCalls(received, [match], (calls) => {
      const found = calls.filter((c) => matchesCall(c, match));
      return {
        pass: found.length > 0,
        message: () =>
          found.length > 0
            ? `expected no call ${describeMatch(match)}, but received ${found.length}: ${found.map((c) => c.id).join(', ')}`
            : `expected a call ${describeMatch(match)}, but received none.\n${explainMisses(calls, match)}`,
      };
    });
  },

  toHaveReceivedTimes(received: CallSource, operationId: string, times: number, expected: ExpectedCall = {}) {
    if (!Number.isInteger(times) || times < 0)
      throw new TypeError(`toHaveReceivedTimes: times must be a whole number from 0, not ${String(times)}.`);
    const match = { ...expected, operationId };
    return withCalls(received, [match], (calls) => {
      const found = calls.filter((c) => matchesCall(c, match));
      return {
        pass: found.length === times,
        message: () =>
          `expected ${times} call${times === 1 ? '' : 's'} ${describeMatch(match)}, but received ${found.length}` +
          `${found.length ? ` (${found.map((c) => c.id).join(', ')})` : ''}.\n${explainMisses(calls, match)}`,
      };
    });
  },

  toHaveReceivedInOrder(received: CallSource, steps: OrderedCall[]) {
    const matches = steps.map((s) => (typeof s === 'string' ? { operationId: s } : s));
    return withCalls(received, matches, (calls) => {
      let from = 0;
      for (const [i, match] of matches.entries()) {
        const at = calls.findIndex((c, index) => index >= from && matchesCall(c, match));
        if (at < 0) {
          const seen = calls.map((c) => c.operationId ?? `${c.method} ${c.path}`).join(' → ') || 'no calls';
          const before = calls.slice(0, from).find((c) => matchesCall(c, match));
          const where =
            i === 0
              ? 'never came'
              : before
                ? `came only before step ${i} (as ${before.id}), not after it`
                : `never came after step ${i}`;
          return {
            pass: false,
            message: () =>
              `expected calls in order: ${matches.map((m) => m.operationId).join(' → ')}, ` +
              `but step ${i + 1} (${describeMatch(match)}) ${where}.\n` +
              `received: ${seen}\n${explainMisses(calls.slice(from), match)}`,
          };
        }
        from = at + 1;
      }
      return {
        pass: true,
        message: () => `expected the calls not to come in order: ${matches.map((m) => m.operationId).join(' → ')}`,
      };
    });
  },
};

/**
 * Judges the source's calls, once the matches are known to be usable: each match's fields are checked, and
 * an operationId no call has is put to the source, which throws (or rejects) when its contract lacks it. A
 * misspelt name would otherwise match nothing, and `.not` pass for the wrong reason.
 */
function withCalls(
  received: CallSource,
  matches: CallMatch[],
  judge: (calls: CallRecord[]) => MatcherResult,
): MatcherResult | Promise<MatcherResult> {
  if (typeof received?.calls !== 'function')
    return {
      pass: false,
      message: () => 'expected a mock (createApp(), startMock() or connectMock()), with a calls() method',
    };
  for (const match of matches) {
    const wrong = checkCallMatch(match);
    if (wrong) throw new TypeError(wrong);
  }
  const checked = (calls: CallRecord[]): MatcherResult | Promise<MatcherResult> => {
    const unseen = [...new Set(matches.map((m) => m.operationId))].filter(
      (id) => id !== undefined && !calls.some((c) => c.operationId === id),
    );
    const asked = unseen.map((operationId) => received.calls({ operationId }));
    return asked.some((a) => a instanceof Promise) ? Promise.all(asked).then(() => judge(calls)) : judge(calls);
  };
  const calls = received.calls();
  return calls instanceof Promise ? calls.then(checked) : checked(calls);
}
