// startMock(): a mock listening on a real socket, for test suites, scripts and the CLI.
import { once } from 'node:events';
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { problem } from './http/problems.js';
import type { AddressInfo } from 'node:net';
import { contextOfApp, createApp, type MockApp } from './app.js';
import type { Typed, UntypedOperations } from './control/operation-types.js';
import { loadContract } from './node/load-contract.js';
import { buildContract, CONTRACT_OBJECT, isContract, type Contract } from './contract/contract.js';
import { noDocuments } from './contract/no-documents.js';
import { withListeningHost } from './handler/guards/host-guard.js';
import { watchContract } from './node/watch-contract.js';
import { createLogger, type Logger } from './instance/logger.js';
import { DEFAULT_CONTRACT } from './node/default-contract.js';
import { processSink } from './node/process-sink.js';
import {
  FILE_STATE_BYTES,
  resolveMockOptions,
  type MockOptions,
  type ContractEntry,
  type ServerOptions,
  type StateSync,
} from './instance/options.js';
import { datedGenerators, pinAsOf } from './instance/dated-generators.js';
import { checkSnapshot, recordId } from './state/check-snapshot.js';
import { completeSnapshot, recordMaker } from './state/complete-record.js';
import { inferCollections, type CollectionMap } from './plan/infer-collections.js';
import type { RedisReplica } from './node/redis-replica.js';
import { readJsonFile } from './node/read-json-file.js';
import { warmUp } from './plan/warm-up.js';
import type { SqliteStore } from './node/sqlite-store.js';
import { StateBudget } from './state/state-budget.js';
import { counted } from './lib/counted.js';
import { deepFreeze } from './lib/frozen-json.js';
import type { StoreSnapshot } from './state/store.js';
import { combineContracts, type Api, type CombinedContract } from './contract/combine-contracts.js';
import { openHarRecorder, type HarRecorder } from './node/record-har.js';
import { packageCreator } from './node/package-info.js';
import { wholeCopyOfCall, type CallListener } from './journal/journal.js';

/**
 * How long a request's line and headers may take to arrive, and the whole request with its body (see ServerOptions).
 */
const HEADERS_TIMEOUT = 10_000;
const REQUEST_TIMEOUT = 30_000;

/** How long {@link RunningMock.close} lets requests in flight finish by default: a real answer takes a few ms. */
const CLOSE_GRACE = 250;

/** A running mock: where it listens, and the test API of {@link MockApp}. */
export interface RunningMock<Ops = UntypedOperations>
  extends
    Typed<Ops>,
    Pick<
      MockApp<Ops>,
      | 'calls'
      | 'waitForCall'
      | 'override'
      | 'clearOverrides'
      | 'importHar'
      | 'reset'
      | 'state'
      | 'setState'
      | 'coverage'
      | 'clearCoverage'
      | 'pact'
      | 'setFaults'
      | 'clearFaults'
      | 'api'
    > {
  /** Base URL, e.g. `http://127.0.0.1:53122`. */
  url: string;
  port: number;
  /**
   * Stops the mock promptly, for a test's `afterAll`: stops listening, closes idle keep-alive connections at
   * once, gives requests in flight `grace` ms (250 by default) to finish, then cuts off the connections still
   * open (a delayed answer, a long-poll of `/__mock/calls/wait`, a client sending its body slowly): their
   * clients see the connection close with no answer, as when a real server goes away (the mock sends no 503,
   * which the contract does not document). The event streams of `/__mock/events` are ended at once, cleanly
   * (their clients read the end of the stream), and are not counted as cut off. The state file, if any, is closed last;
   * every change is in it
   * already, the changes of the requests cut off included. Resolves with how many connections were cut off.
   * @example afterAll(() => mock.close()); // well under a second, whatever is still in flight
   */
  close(options?: CloseOptions): Promise<CloseReport>;
  /** The app behind the socket. */
  mock: MockApp<Ops>;
}

/** How {@link RunningMock.close} stops. */
export interface CloseOptions {
  /**
   * Milliseconds requests in flight get to finish before their connections are closed. The CLI gives 5000 on
   * SIGTERM, so a request a person made finishes; a test wants its teardown quick.
   * @default 250
   */
  grace?: number;
}

/** What a close cut off. */
export interface CloseReport {
  /** Connections still open when the grace period ended, closed without waiting for them. */
  cutOff: number;
}

/**
 * Starts a mock on `127.0.0.1`, on a free port unless `port` is given. Give it openapi-typescript's
 * `operations` type to have the test API check operationIds, path parameters and bodies:
 * `startMock<operations>()`.
 * @example
 * const mock = await startMock({ seed: 42 });
 * await fetch(`${mock.url}/members/m1/passes`, { headers: { Authorization: 'Bearer t' } });
 * expect(mock.calls({ operationId: 'listPasses' })).toHaveLength(1);
 * await mock.close();
 */
export async function startMock<Ops = UntypedOperations>(options: ServerOptions = {}): Promise<RunningMock<Ops>> {
  const {
    contract: source = DEFAULT_CONTRACT,
    port = 0,
    host = '127.0.0.1',
    data,
    stateFile,
    stateSync,
    redis,
    watch = false,
    headersTimeout = HEADERS_TIMEOUT,
    requestTimeout = REQUEST_TIMEOUT,
    record,
    ...given
  } = options;
  const { contracts: apis, ...rest } = given;
  if (redis && stateFile)
    throw new TypeError('Give stateFile (one process keeps its state) or redis (replicas share it), not both.');
  const keepsState = data !== undefined || stateFile !== undefined || rest.state !== undefined;
  const recordsState = typeof rest.proxy === 'object' && rest.proxy.recordState === true;
  if (rest.stateless && (keepsState || recordsState))
    throw new TypeError(
      'stateless keeps no state: give data, stateFile, state or proxy.recordState without it, or leave it out.',
    );
  if (apis && options.contract !== undefined)
    throw new TypeError('Give contract (one API) or contracts (several), not both.');
  const contract = apis ? await combinedOf(apis) : await contractOf(source);
  // A process's streams, batched, unless the caller named a sink.
  const logTo = rest.logTo ?? processSink();
  const recorder = record ? recorderOf(record, host, createLogger(rest.log ?? 'off', logTo)) : undefined;
  // Each API's own backend, given with its contract (ContractEntry.proxy), beside those given by name.
  const proxies = {
    ...Object.fromEntries((apis ?? []).flatMap((a) => (a.proxy ? [[a.name, a.proxy]] : []))),
    ...rest.proxies,
  };
  for (const api of apis ?? [])
    if (api.proxy && rest.proxies?.[api.name] !== undefined)
      throw new TypeError(`${api.name} has a backend in its contracts entry and another in proxies: give one.`);
  // `today` is read once: the fixtures are completed as of the day the mock's placeholders are read.
  const mockOptions = { ...rest, ...(rest.asOf && { asOf: pinAsOf(rest.asOf) }), logTo, proxies };
  const collections = inferCollections(contract.operations);
  // Fixtures read from a file are the mock's own: frozen, every session's store (and every reset) keeps them as
  // they are, without a copy each.
  const fixtures = data
    ? deepFreeze(fixturesOf(await readJsonFile(data, 'data file'), data, collections, mockOptions))
    : fixturesOf(mockOptions.state ?? {}, 'the initial state', collections, mockOptions);
  const logger = createLogger(resolveMockOptions(mockOptions).log, logTo);
  const store = stateFile
    ? await openState(stateFile, stateSync, mockOptions, collections, fixtures, logger)
    : undefined;
  let mock: MockApp<Ops>;
  try {
    const allowedHosts = withListeningHost(mockOptions.allowedHosts ?? [], host);
    mock = createApp<Ops>(contract, { ...mockOptions, allowedHosts, state: fixtures, store });
    if (recorder) contextOfApp(mock).callListeners.add(recording(recorder));
  } catch (error) {
    store?.close();
    recorder?.close();
    throw error;
  }
  let replica: RedisReplica | undefined;
  try {
    // Loaded only for replicas: its Redis client is 150 ms of every start.
    replica = redis
      ? await (await import('./node/redis-replica.js')).RedisReplica.open(contextOfApp(mock), { url: redis })
      : undefined;
  } catch (error) {
    store?.close();
    recorder?.close();
    throw error;
  }
  const stopWatching = !watch
    ? () => undefined
    : 'apis' in contract
      ? reloadApisOnEdit(mock, (contract as CombinedContract).apis, logger)
      : hasFile(contract.source)
        ? reloadOnEdit(mock, logger)
        : () => undefined;
  warmUp();
  // A connection that sends no request (or sends it slowly) is answered 408 and closed, freeing its socket.
  const server = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval: 1000 }, mock.handle);
  server.listen(port, host);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, rest.cors ?? true),
  );
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
  } catch (error) {
    stopWatching();
    store?.close();
    recorder?.close();
    replica?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    ...testApiOf(mock),
    async close({ grace = CLOSE_GRACE }: CloseOptions = {}) {
      stopWatching();
      // A stream of /__mock/events never ends by itself: ended now, its connection is closed as idle at once.
      mock.endStreams();
      const report = await closeServer(server, grace);
      replica?.close();
      store?.close();
      recorder?.close();
      return report;
    },
    mock,
  };
}

/**
 * The recording of `record`: the file opened now (a path it cannot write is refused at start), the log told
 * when it is full.
 */
function recorderOf(file: string, host: string, logger: Logger): HarRecorder {
  return openHarRecorder(file, {
    creator: packageCreator(),
    host,
    onFull: (bound) =>
      logger.warn(
        `the recording ${file} reached ${bound}, what POST /__mock/har takes: later calls are not recorded.`,
        { event: 'record', file },
      ),
  });
}

/**
 * The call listener that writes the calls the real backend answered to the recording, their bodies as the proxy
 * read them (not cut at the journal's limit); a call another replica served, as its journal has it.
 */
function recording(recorder: HarRecorder): CallListener {
  return (call) => {
    if (call.answeredBy === 'proxy') recorder.add(wholeCopyOfCall(call) ?? call);
  };
}

/** The test API of the app behind the socket: its own methods (they use no `this`), typed overloads and all. */
function testApiOf<Ops>(mock: MockApp<Ops>): Omit<RunningMock<Ops>, 'url' | 'port' | 'close' | 'mock'> {
  const { calls, waitForCall, override, clearOverrides, importHar, coverage, clearCoverage, pact, reset } = mock;
  const { state, setState, setFaults, clearFaults } = mock;
  return {
    // One API's typed test API (several APIs): built on the methods above, so it needs the app as it is.
    api: (name) => mock.api(name),
    setFaults,
    clearFaults,
    calls,
    waitForCall,
    override,
    clearOverrides,
    importHar,
    coverage,
    clearCoverage,
    pact,
    reset,
    state,
    setState,
  };
}

/**
 * The contract given: a path or URL, loaded; a contract loadContract made, as it is; an OpenAPI (or Swagger
 * 2.0) document as an object (parsed JSON or YAML), built with the references inside it (a reference to
 * another file is refused: an object has no folder to read it from).
 * @throws ContractError saying what is wrong, for an object that is no OpenAPI document too
 */
async function contractOf(given: string | Contract | object): Promise<Contract> {
  if (typeof given === 'string') return loadContract(given);
  if (isContract(given)) return given;
  return buildContract(given, CONTRACT_OBJECT, noDocuments);
}

/** Whether a contract's source is a file to watch: not a URL, not a document given as an object. */
function hasFile(source: string): boolean {
  return source !== CONTRACT_OBJECT && !/^https?:\/\//i.test(source);
}

/** Several APIs' contracts, loaded side by side and made one (see combine-contracts.ts). */
async function combinedOf(entries: ContractEntry[]): Promise<CombinedContract> {
  if (entries.length === 0) throw new TypeError('contracts is empty: give at least one API.');
  const loaded = await Promise.all(
    entries.map(async ({ name, contract, mount = '/' }) => ({
      name,
      mount,
      contract: await contractOf(contract),
    })),
  );
  return combineContracts(loaded);
}

/**
 * Several APIs: each edit of one API's file is served (the APIs made one again), keeping state and journal;
 * an edit that cannot be loaded, or that collides with another API, leaves the last good contracts served.
 */
function reloadApisOnEdit<Ops>(mock: MockApp<Ops>, apis: Api[], logger: Logger): () => void {
  const current = [...apis];
  const stops = current.map((api, index) =>
    !hasFile(api.contract.source)
      ? () => undefined
      : watchContract(
          api.contract,
          (next) => {
            const edited = current.map((one, i) => (i === index ? { ...one, contract: next } : one));
            try {
              mock.reload(combineContracts(edited));
            } catch (error) {
              logger.error(`the edit of ${api.name} was not served: ${(error as Error).message}`, {
                event: 'reload',
                contract: api.contract.source,
              });
              return;
            }
            current[index] = edited[index]!;
            logger.info(`contract of ${api.name} reloaded: ${next.operations.length} operations`, {
              event: 'reload',
              contract: api.contract.source,
            });
          },
          (error) =>
            logger.error(
              `the edit of ${api.name} was not loaded, still serving the last good version: ${error.message}`,
              {
                event: 'reload',
                contract: api.contract.source,
              },
            ),
        ),
  );
  return () => stops.forEach((stop) => stop());
}

/**
 * Serves each edit of the contract's file, keeping state and journal; says so in the log, and when the state
 * kept no longer fits the new contract. An edit that cannot be loaded leaves the last good contract served.
 */
function reloadOnEdit<Ops>(mock: MockApp<Ops>, logger: Logger): () => void {
  const { source } = mock.contract;
  return watchContract(
    mock.contract,
    (next) => {
      mock.reload(next);
      const served = { operations: next.operations.length, title: next.title, version: next.version };
      logger.info(
        `contract reloaded, serving ${counted(served.operations, 'operation')} of "${served.title}" ${served.version}`,
        {
          event: 'reload',
          contract: source,
          ...served,
        },
      );
      // The state is kept as it is; say so when the edit makes some of it break the new contract.
      try {
        checkSnapshot(mock.state().collections, inferCollections(next.operations), 'the state');
      } catch (error) {
        logger.warn(
          `after the reload, ${(error as Error).message} It is kept as it is; POST /__mock/reset starts again.`,
          { event: 'reload', contract: source },
        );
      }
    },
    (error) =>
      logger.error(`the contract edit was not loaded, still serving the last good version: ${error.message}`, {
        event: 'reload',
        contract: source,
      }),
  );
}

/**
 * Fixtures (`--data`, or the `state` option) made whole: records left partial are made from the seed, as the
 * mock would make them, and every record is checked here, so an error names the file.
 */
function fixturesOf(value: unknown, source: string, collections: CollectionMap, options: MockOptions): StoreSnapshot {
  const { seed, asOf } = resolveMockOptions(options);
  const maker = recordMaker(collections, datedGenerators(seed, asOf).generator);
  return checkSnapshot(completeSnapshot(maker, value), collections, source);
}

/**
 * Requests Node's HTTP parser refuses (an unknown method, headers over its limit) never reach the app;
 * they still get a problem+json, then the connection closes. They cannot be journaled: nothing was parsed.
 */
function answerClientError(
  error: NodeJS.ErrnoException & { rawPacket?: Buffer },
  socket: Duplex,
  cors: boolean | string[],
): void {
  if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
  const found = clientProblem(error.code);
  const body = JSON.stringify(found);
  const { status } = found;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\n` +
      corsLines(error.rawPacket, cors) +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The CORS headers of such an answer, as the CORS guard would give them (handler/guards/cors.ts), read from the
 * bytes Node could not parse: without them a page's script sees an opaque network error, not the 431. Read only
 * when the request line and its `Origin` came in the packet Node gave up on (they do when headers are sent at once).
 */
function corsLines(packet: Buffer | undefined, cors: boolean | string[]): string {
  if (cors === false || packet === undefined) return '';
  const head = packet.subarray(0, 64 * 1024).toString('latin1');
  const origin = /\r\norigin:[ \t]*([^\r\n]*?)[ \t]*\r\n/i.exec(head)?.[1];
  if (origin === undefined) return '';
  const admin = /^[A-Z]+ (?:https?:\/\/[^/ ]*)?\/__mock(?:[/?# ]|$)/i.test(head);
  const vary = 'Vary: Origin\r\n';
  if (origin === 'null') return cors === true && !admin ? `${vary}Access-Control-Allow-Origin: *\r\n` : vary;
  const allowed = cors === true ? !admin : cors.includes(origin);
  // An origin is echoed only as its header may hold it: printable, no line break (the regex took none).
  if (!allowed || !/^[\x21-\x7e]+$/.test(origin)) return vary;
  return `${vary}Access-Control-Allow-Origin: ${origin}\r\nAccess-Control-Allow-Credentials: true\r\n`;
}

/** The problem of a connection Node's HTTP parser gave up on: too slow, too large, or not HTTP. */
function clientProblem(code: string | undefined) {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return problem(
      'requestTimeout',
      'The request line and headers (or the body) did not arrive in time; the connection is closed to free it.',
    );
  if (code === 'HPE_HEADER_OVERFLOW')
    return problem(
      'headersTooLarge',
      'The request line and headers together are larger than the server accepts (16 KiB).',
    );
  const detail = `The request could not be parsed as HTTP/1.1 (${code ?? 'parse error'}); check the method and the request line.`;
  return problem('malformedHttp', detail);
}

/**
 * Closes a server: idle keep-alive connections at once, busy ones when their response is done, and those
 * still open after `grace` ms (a client sending its body slowly, a long-poll, a delayed answer) at once.
 */
export function closeServer(server: Server, grace = 5000): Promise<CloseReport> {
  return new Promise((resolve, reject) => {
    let cutOff = 0;
    // A keep-alive connection whose answer ends after the close becomes idle: close it then, not at its timeout.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => {
      server.getConnections((error, count) => {
        cutOff = error ? 0 : count;
        server.closeAllConnections();
      });
    }, grace);
    server.close((error) => {
      clearTimeout(deadline);
      clearInterval(sweep);
      if (error) reject(error);
      else resolve({ cutOff });
    });
    server.closeIdleConnections();
  });
}

/**
 * Opens the state file: a new one starts from the fixtures, a JSON one of earlier versions is imported (and
 * said so), an existing database is served as it is. Its budget is {@link FILE_STATE_BYTES} unless given.
 */
async function openState(
  file: string,
  sync: StateSync | undefined,
  { collectionLimit = 1000, stateBytes = FILE_STATE_BYTES }: MockOptions,
  collections: CollectionMap,
  fixtures: StoreSnapshot,
  logger: Logger,
): Promise<SqliteStore> {
  // Loaded only for a state file: SQLite's addon is not every start's.
  const { openStateFile } = await import('./node/open-state-file.js');
  const { store, origin, imported } = await openStateFile(file, {
    limits: { collection: collectionLimit, budget: new StateBudget(stateBytes) },
    sync,
    initial: fixtures,
    accept: (state, source) => checkSnapshot(state, collections, source),
    idOf: (path, record) => recordId(collections, path, record),
  });
  if (origin === 'imported')
    logger.info(
      `imported ${counted(imported!.records, 'record')} from the JSON state file ${file} into SQLite ` +
        `(the JSON file is kept as ${imported!.from}).`,
      { event: 'import', file, records: imported!.records, kept: imported!.from },
    );
  return store;
}
