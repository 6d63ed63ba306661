// The public API of the membership mock.
export { createApp, type MockApp } from './app.js';
export { loadContract, ContractError, type Contract, type Operation } from './contract/load-contract.js';
export type { CallFilter, CallRecord } from './journal/journal.js';
export { DEFAULT_CONTRACT, type MockOptions, type ServerOptions } from './options.js';
export type { Problem, Violation } from './problems/problems.js';
export { startMock, type RunningMock } from './server.js';
