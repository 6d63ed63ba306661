// The public API of the membership mock.
export { createApp, type MockApp } from './app.js';
export { loadContract, ContractError, type Contract, type Operation } from './node/load-contract.js';
export type { CallFilter, CallRecord } from './journal/journal.js';
export type { Coverage, OperationCoverage } from './reports/coverage.js';
export type { Pact, PactParties } from './reports/pact.js';
export {
  checkCoverage,
  coverageJunit,
  coverageMarkdown,
  coverageSummary,
  type CoverageThreshold,
} from './reports/coverage-report.js';
export { mockGlobalSetup, type CoverageOutput, type MockSetupOptions } from './testing/global-setup.js';
export { redactSecret } from './journal/redact.js';
export { CallWaitTimeout } from './journal/wait-for-call.js';
export type { WaitOptions } from './journal/wait-for-call.js';
export { type ContractEntry, type MockOptions, type ServerOptions } from './instance/options.js';
export type { AsOf } from './instance/dated-generators.js';
export { DEFAULT_CONTRACT } from './node/default-contract.js';
export type { Problem, Violation } from './http/problems.js';
export type { Refusal } from './respond/shape-refusal.js';
export type { BodyViolation } from './prism/check-response.js';
export type { CallMatch } from './journal/call-match.js';
export type { FaultKind, Faults, Latency } from './respond/faults.js';
export type { LogLevel, LogSink } from './instance/logger.js';
export type { Override, OverrideSpec } from './respond/overrides.js';
export type { HarImport, HarReplay } from './respond/har-import.js';
export { StateError } from './state/check-snapshot.js';
export type { MockState, Store, StoreSnapshot, StoredRecord } from './state/store.js';
export { startMock, type CloseOptions, type CloseReport, type RunningMock } from './server.js';
export { connectMock, type RemoteApiView, type RemoteMock, type RemoteOptions } from './testing/remote-mock.js';
export type { CallSource, ExpectedCall } from './testing/matchers.js';
export type {
  AnyCall,
  OperationId,
  TypedCall,
  TypedExpectation,
  TypedMatch,
  TypedOverride,
  UntypedOperations,
} from './control/operation-types.js';
