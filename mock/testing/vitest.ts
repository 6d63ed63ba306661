// `import 'membership-mock/vitest'` registers the call matchers with vitest's expect and types them.
import { expect } from 'vitest';
import { mockMatchers, type ExpectedCall, type OrderedCall } from './matchers.js';

expect.extend(mockMatchers);

interface MockMatchers<R = unknown> {
  /** At least one call of the operation matched (params, query, headers, body: partial). */
  toHaveReceived(operationId: string, expected?: ExpectedCall): R;
  /** Exactly `times` calls of the operation matched. */
  toHaveReceivedTimes(operationId: string, times: number, expected?: ExpectedCall): R;
  /** The calls came in this order (others may come between). */
  toHaveReceivedInOrder(steps: OrderedCall[]): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion<T = any> extends MockMatchers<T> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends MockMatchers {}
}

export { mockMatchers };
