// Test helpers: every mock made through them has its answers checked against its contract after the file.
import {
  createApp,
  type Contract,
  DEFAULT_CONTRACT,
  loadContract,
  startMock,
  type MockApp,
  type MockOptions,
  type RunningMock,
  type ServerOptions,
} from '../../mock/index.js';
import type { CallRecord } from '../../mock/journal/journal.js';

export const AUTH = { Authorization: 'Bearer test-token' };

interface Tracked {
  source: string;
  calls(): CallRecord[];
}

const tracked: Tracked[] = [];

/** Every call recorded by the mocks of this test file, with the contract each one serves. */
export function trackedCalls(): { source: string; calls: CallRecord[] }[] {
  return tracked.map((t) => ({ source: t.source, calls: t.calls() }));
}

/** Registers a mock (in-process or remote) whose recorded answers must conform to `source`. */
export function track(source: string, calls: () => CallRecord[]): void {
  tracked.push({ source, calls });
}

let sharedDefault: Promise<Contract> | undefined;

/** The default contract, parsed once per test file (each file runs in a worker of its own) and shared by its mocks. */
export function defaultContract(): Promise<Contract> {
  return (sharedDefault ??= loadContract(DEFAULT_CONTRACT));
}

/** An app for supertest, built from a contract (the default one unless named). */
export async function newMock(options: MockOptions & { contract?: string } = {}): Promise<MockApp> {
  const { contract = DEFAULT_CONTRACT, ...rest } = options;
  const mock = createApp(contract === DEFAULT_CONTRACT ? await defaultContract() : await loadContract(contract), rest);
  // Calls are read when the file ends; a reset in between would hide them, so keep a copy as we go.
  const seen: CallRecord[] = [];
  const reset = mock.reset;
  mock.reset = () => {
    seen.push(...mock.calls());
    reset();
  };
  track(mock.contract.source, () => [...seen, ...mock.calls()]);
  return mock;
}

/** A mock on a real socket, tracked like {@link newMock}. */
export async function newServer(options: ServerOptions = {}): Promise<RunningMock> {
  const running = await startMock({ contract: await defaultContract(), ...options });
  track(running.mock.contract.source, () => running.calls());
  return running;
}
