// `import 'membership-mock/vitest'` registers the call matchers with vitest's expect; their types come with
// them (matcher-types.ts). It also types `inject('mockUrl')`, the URL mockGlobalSetup provides to the tests.
import { expect } from 'vitest';
import { mockMatchers } from './matchers.js';

declare module 'vitest' {
  /** What mockGlobalSetup provides: without it, `inject('mockUrl')` does not compile. */
  export interface ProvidedContext {
    /** The run's mock, as `process.env.MOCK_URL`: `http://127.0.0.1:PORT`. */
    mockUrl: string;
  }
}

expect.extend(mockMatchers);

export { mockMatchers };
