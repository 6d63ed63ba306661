// startMock(): a mock listening on a real socket, for test suites and scripts.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type MockApp } from './app.js';
import { loadContract } from './contract/load-contract.js';
import type { CallFilter, CallRecord } from './journal/journal.js';
import { DEFAULT_CONTRACT, type ServerOptions } from './options.js';

/** A running mock. */
export interface RunningMock {
  /** Base URL, e.g. `http://127.0.0.1:53122`. */
  url: string;
  port: number;
  /** Copies of the recorded calls, oldest first, optionally filtered. */
  calls(filter?: CallFilter): CallRecord[];
  /** Clears the journal and everything else the mock holds. */
  reset(): void;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
  /** The app behind the socket. */
  mock: MockApp;
}

/**
 * Starts a mock on `127.0.0.1`, on a free port unless `port` is given.
 * @example
 * const mock = await startMock({ seed: 42 });
 * await fetch(`${mock.url}/members/m1/passes`, { headers: { Authorization: 'Bearer t' } });
 * expect(mock.calls({ operationId: 'listPasses' })).toHaveLength(1);
 * await mock.close();
 */
export async function startMock(options: ServerOptions = {}): Promise<RunningMock> {
  const { contract = DEFAULT_CONTRACT, port = 0, host = '127.0.0.1', ...mockOptions } = options;
  const mock = createApp(await loadContract(contract), mockOptions);
  const server = mock.app.listen(port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    calls: mock.calls,
    reset: mock.reset,
    close: () => closeServer(server),
    mock,
  };
}

/** Closes a server: idle keep-alive connections at once, busy ones when their response is done. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}
