// The matchers' types, on Jest's global `jest.Matchers`: vitest's `Assertion` extends it, so they hold
// whichever copy of vitest (or Jest) the test project resolves, installed from the registry, a tarball, a
// folder or a link. A module augmentation of 'vitest' would attach to the copy this package resolves, which is
// not the test's when the package is linked. The operation types come from the mock the assertion is on.
import type { CallRecord } from '../journal/journal.js';
import type { OperationId, OperationsOf, TypedExpectation, TypedMatch } from '../control/operation-types.js';

/**
 * A matcher on a remote mock (`connectMock`) settles later: `await` it. On a mock in this process it is synchronous.
 */
type Settled<T, R> = T extends { calls(...args: never[]): Promise<CallRecord[]> } ? Promise<R> : R;

/** A step of `toHaveReceivedInOrder`: an operationId, or a match with one. */
export type OrderedStep<Ops> = OperationId<Ops> | { [Id in OperationId<Ops>]: TypedMatch<Ops, Id> }[OperationId<Ops>];

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Matchers<R, T = {}> {
      /** At least one call of the operation matched (pathParams, query, headers, body: partial). */
      toHaveReceived<Id extends OperationId<OperationsOf<T>>>(
        operationId: Id,
        expected?: TypedExpectation<OperationsOf<T>, Id>,
      ): Settled<T, R>;
      /** Exactly `times` calls of the operation matched. */
      toHaveReceivedTimes<Id extends OperationId<OperationsOf<T>>>(
        operationId: Id,
        times: number,
        expected?: TypedExpectation<OperationsOf<T>, Id>,
      ): Settled<T, R>;
      /** The calls came in this order (others may come between). */
      toHaveReceivedInOrder(steps: OrderedStep<OperationsOf<T>>[]): Settled<T, R>;
    }
  }
}
