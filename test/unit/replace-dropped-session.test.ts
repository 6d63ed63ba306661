// A gradual replace of a session's state (PUT /__mock/state) works in slices; a reset that drops the session between
// two slices must leave nothing behind: no state answered as kept, no bytes charged to the budget sessions share.
import { expect, test } from 'vitest';
import { createControl } from '../../mock/control/control.js';
import { buildContext } from '../../mock/instance/build-context.js';
import { sessionOf } from '../../mock/instance/mock-context.js';
import { DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';

test('a session dropped while its state is replaced answers 410, and its bytes are not charged', async () => {
  const context = buildContext(await loadContract(DEFAULT_CONTRACT), { seed: 3 });
  const control = createControl(context, { creator: 'test' } as never);
  // Partial records take a draw each: thousands take more than one slice (a collection holds 1000 at most).
  const passes = Array.from({ length: 900 }, (_, i) => ({ name: `pass ${i}` }));
  const state = Object.fromEntries(['m1', 'm2', 'm3'].map((m) => [`/members/${m}/passes`, passes]));
  const replacing = control.setStateGradually('bulk', state, 'PUT /__mock/state');
  // Between the first slice and the next: the whole mock is reset, and the session with it.
  control.reset();
  const outcome = await replacing;
  expect(outcome).toMatchObject({ ok: false, error: { kind: 'sessionDropped' } });
  expect(sessionOf(context, '').store.limits.budget.used).toBe(0);
  expect(context.sessions.has('bulk')).toBe(false);
});
