// `import 'membership-mock/vitest'` registers the call matchers with vitest's expect; their types come with
// them (matcher-types.ts).
import { expect } from 'vitest';
import { mockMatchers } from './matchers.js';

expect.extend(mockMatchers);

export { mockMatchers };
