// vitest matchers over recorded calls: toHaveReceived, toHaveReceivedTimes, toHaveReceivedInOrder. They
// work on an in-process mock (synchronously) and on a remote one (await them).
import type { CallRecord } from '../journal/journal.js';
import { describeMatch, explainMisses } from '../journal/wait-for-call.js';
import { matchesCall, type CallMatch } from '../journal/call-match.js';

/** Anything that can list its calls: `createApp()`, `startMock()`, or `connectMock()` (asynchronously). */
export interface CallSource {
  calls(): CallRecord[] | Promise<CallRecord[]>;
}

/** What to expect of a call, after its operationId. */
export type ExpectedCall = Omit<CallMatch, 'operationId'>;

/** A step of toHaveReceivedInOrder: an operationId, or a match with one. */
export type OrderedCall = string | (CallMatch & { operationId: string });

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/**
 * The matchers, for `expect.extend(mockMatchers)` (done for you by `import 'membership-mock/vitest'`).
 * @example expect(mock).toHaveReceived('createCredential', { params: { member_id: 'm1' }, body: { kind: 'pin' } });
 */
export const mockMatchers = {
  toHaveReceived(received: CallSource, operationId: string, expected: ExpectedCall = {}) {
    return withCalls(received, (calls) => {
      const match = { ...expected, operationId };
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
    return withCalls(received, (calls) => {
      const match = { ...expected, operationId };
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
    return withCalls(received, (calls) => {
      const matches = steps.map((s) => (typeof s === 'string' ? { operationId: s } : s));
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

function withCalls(
  received: CallSource,
  judge: (calls: CallRecord[]) => MatcherResult,
): MatcherResult | Promise<MatcherResult> {
  if (typeof received?.calls !== 'function')
    return {
      pass: false,
      message: () => 'expected a mock (createApp(), startMock() or connectMock()), with a calls() method',
    };
  const calls = received.calls();
  return calls instanceof Promise ? calls.then(judge) : judge(calls);
}
