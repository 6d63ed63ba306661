// A replica of the mock that shares its state, counters, overrides, faults and journal with the others through
// Redis (`--store redis://host:port/db`): each keeps its own copy, Redis keeps the ordered log of changes (a
// stream) and a short lock. See mock/docs/replicas.md.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { MockContext } from '../instance/mock-context.js';
import type { Replication } from '../instance/replication.js';
import { ReplicaChanges, type Change } from './replica-changes.js';
import { BEGIN, COMMIT, RELEASE } from './redis-scripts.js';

/** How a replica reaches Redis. */
export interface RedisStoreOptions {
  /** `redis://host:port/db`, `?prefix=name:` to keep this mock's keys apart from another's on the same server. */
  url: string;
  /** Milliseconds a command, or waiting for the lock, may take before a request is answered 503. @default 1000 */
  timeout?: number;
  /** Milliseconds the lock is held at most, should a replica die holding it. @default 5000 */
  lockTtl?: number;
}

/**
 * Entries the log may hold before the next section keeps a snapshot of everything and trims the log before it
 * (`?snapshotEvery=` in the URL). @default 1000
 */
const SNAPSHOT_EVERY = 1000;

type Entry = [id: string, fields: string[]];

interface Work {
  work: () => void;
  unavailable: () => void;
}

/** Sections run one batch at a time: the requests that arrived while one ran run together in the next. */
const BATCH = 64;

/** The sections of a replica that shares its state through Redis (see Replication). */
export class RedisReplica implements Replication {
  readonly #redis: Redis;
  readonly #reader: Redis;
  readonly #changes: ReplicaChanges;
  /** lock, log, turn, snapshot, snapshot id (see redis-scripts.ts). */
  readonly #keys: string[];
  readonly #snapshotEvery: number;
  /** The log's length after the last publish: past `#snapshotEvery`, the next one keeps a snapshot. */
  #logLength = 0;
  /** This replica, as the turn names it. */
  readonly #id = randomUUID();
  readonly #timeout: number;
  readonly #lockTtl: number;
  #applied = '0-0';
  #queue: Work[] = [];
  #running = false;
  #writes: Work[] | undefined;
  #closed = false;
  #lastError: { message: string; at: string } | undefined;
  /** When Redis last answered, and last failed to (ms since the epoch): failing while the failure is newer. */
  #answeredAt = 0;
  #failedAt = 0;
  #errors = 0;
  /** Counts the times this replica forgot its copy: a read begun before one is not applied after it. */
  #forgotten = 0;
  /**
   * A section is open (from taking the lock to publishing): the follower applies nothing then, since what it
   * read may be this section's own changes, published but not yet known to be.
   */
  #open = false;

  private constructor(
    readonly context: MockContext,
    { url, timeout = 1000, lockTtl = 5000 }: RedisStoreOptions,
  ) {
    const { address, prefix, snapshotEvery } = readStoreUrl(url);
    this.#keys = ['lock', 'log', 'turn', 'snapshot', 'snapshot-id'].map((key) => prefix + key);
    this.#snapshotEvery = snapshotEvery;
    this.#timeout = timeout;
    this.#lockTtl = lockTtl;
    const settings = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: timeout,
      retryStrategy: (times: number) => Math.min(times * 100, 1000),
    };
    this.#redis = new Redis(address, { ...settings, commandTimeout: timeout });
    this.#reader = new Redis(address, settings);
    for (const client of [this.#redis, this.#reader]) {
      client.on('error', (error: Error) => this.#failed(error));
      client.on('ready', () => (this.#answeredAt = Date.now()));
    }
    this.#changes = new ReplicaChanges(context, () => this.#health());
  }

  /** Connects, applies the log as it stands, and follows it. Fails when Redis cannot be reached in time. */
  static async open(context: MockContext, options: RedisStoreOptions): Promise<RedisReplica> {
    const replica = new RedisReplica(context, options);
    try {
      await Promise.all([replica.#redis.connect(), replica.#reader.connect()]);
      // A first section, with nothing to do: the log (or the snapshot and the log after it) applied.
      const token = randomUUID();
      await replica.#begin(token);
      await replica.#commit(token, []);
    } catch (error) {
      replica.close();
      throw new Error(`Cannot use the Redis store at ${options.url}: ${(error as Error).message}`, { cause: error });
    }
    context.replication = replica;
    void replica.#follow();
    return replica;
  }

  within(work: () => void, unavailable: () => void): void {
    if (this.#writes) return work();
    this.#queue.push({ work, unavailable });
    if (!this.#running) void this.#drain();
  }

  afterPublish(write: () => void, unavailable: () => void): void {
    if (this.#writes) this.#writes.push({ work: write, unavailable });
    else write();
  }

  /** Stops following the log and closes both connections. */
  close(): void {
    this.#closed = true;
    this.#redis.disconnect();
    this.#reader.disconnect();
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        this.#open = true;
        await this.#section(this.#queue.splice(0, BATCH));
        this.#open = false;
      }
    } finally {
      this.#running = false;
      this.#open = false;
    }
  }

  /** One section: current, then the batch's work, then its changes published, then what it wrote. */
  async #section(batch: Work[]): Promise<void> {
    const token = randomUUID();
    try {
      await this.#begin(token);
    } catch (error) {
      this.#failed(error as Error);
      // Redis may still run the BEGIN that timed out: this, sent after it, lets go of the lock it would take.
      this.#redis.eval(RELEASE, 1, this.#keys[0]!, token).catch(() => undefined);
      for (const { unavailable } of batch) quietly(unavailable);
      return;
    }
    const writes: Work[] = [];
    this.#writes = writes;
    try {
      // A request's work answers its own errors; one that throws all the same is not left without an answer.
      for (const { work, unavailable } of batch)
        try {
          work();
        } catch {
          quietly(unavailable);
        }
    } finally {
      this.#writes = undefined;
    }
    const published = await this.#commit(token, this.#changes.take()).then(
      () => {
        this.#answeredAt = Date.now();
        return true;
      },
      (error: Error) => {
        this.#failed(error);
        this.#forget();
        return false;
      },
    );
    for (const { work, unavailable } of writes) quietly(published ? work : unavailable);
  }

  /** Takes the lock and applies the log since the last entry applied; retries while another replica holds it. */
  async #begin(token: string): Promise<void> {
    const until = Date.now() + this.#timeout;
    const args = [token, this.#lockTtl, this.#applied, this.#id, this.#timeout];
    for (;;) {
      args[2] = this.#applied;
      const got = (await this.#redis.eval(BEGIN, 5, ...this.#keys, ...args)) as [string, string, Entry[]] | null;
      if (got) {
        const [at, snapshot, entries] = got;
        if (at !== '') this.#restart(at, snapshot);
        return this.#apply(entries);
      }
      if (Date.now() > until) throw new Error(`another replica held the lock for more than ${this.#timeout} ms`);
      await sleep(1 + Math.random() * 2);
    }
  }

  /** Starts this replica's copy again from a snapshot of everything as of log entry `at`. */
  #restart(at: string, snapshot: string): void {
    this.#changes.forget();
    this.#changes.apply(JSON.parse(snapshot) as Change[]);
    this.#applied = at;
    this.#forgotten++;
  }

  async #commit(token: string, changes: Change[]): Promise<void> {
    const text = changes.length === 0 ? '' : JSON.stringify(changes);
    // Everything as of this publish, when the log is long enough to trim (this section holds the lock).
    const snapshot = this.#logLength >= this.#snapshotEvery ? JSON.stringify(this.#changes.snapshot()) : '';
    const args = [token, text, snapshot, this.#applied];
    const [id, length] = (await this.#redis.eval(COMMIT, 5, ...this.#keys, ...args)) as [string, number];
    if (id !== '') this.#applied = id;
    this.#logLength = length;
  }

  /** Applies entries of the log newer than the last applied, in order. */
  #apply(entries: Entry[]): void {
    for (const [id, fields] of entries) {
      if (!isAfter(id, this.#applied)) continue;
      this.#changes.apply(JSON.parse(fields[1]!) as Change[]);
      this.#applied = id;
    }
  }

  /** Applies what other replicas publish as it comes, between sections: a wait here sees a call served there. */
  async #follow(): Promise<void> {
    while (!this.#closed) {
      try {
        const forgotten = this.#forgotten;
        const read = (await this.#reader.xread('BLOCK', 2000, 'STREAMS', this.#keys[1]!, this.#applied)) as
          [string, Entry[]][] | null;
        // Every read that returns, even empty after its 2 s, says Redis answers.
        this.#answeredAt = Date.now();
        if (read && !this.#open && forgotten === this.#forgotten) this.#apply(read[0]![1]);
      } catch (error) {
        if (this.#closed) return;
        this.#failed(error as Error);
        await sleep(200);
      }
    }
  }

  /**
   * Forgets this replica's copy after a section whose changes could not be published: every session as it
   * started, then the whole log applied again by the next section.
   */
  #forget(): void {
    this.#changes.forget();
    this.#applied = '0-0';
    this.#forgotten++;
  }

  #failed(error: Error): void {
    this.#errors++;
    this.#failedAt = Date.now();
    this.#lastError = { message: error.message, at: new Date().toISOString() };
  }

  #health() {
    // Failing while a connection is down, or while the last failure (a command that timed out: Redis hung) is
    // newer than the last answer. Ready again as soon as Redis answers the follower or a reconnect: a probe that
    // took the traffic away brings no request to try.
    const down = this.#redis.status !== 'ready' || this.#reader.status !== 'ready';
    const failing = down || this.#failedAt >= this.#answeredAt;
    return { failing, errors: this.#errors, ...(this.#lastError ? { lastError: this.#lastError } : {}) };
  }
}

/** Runs a function, its failure its own (a request's work answers its own errors). */
function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // The handler answered or logged it.
  }
}

/** Whether stream id `a` comes after `b` (`ms-seq`). */
function isAfter(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(Number) as [number, number];
  const [bm, bs] = b.split('-').map(Number) as [number, number];
  return am > bm || (am === bm && as > bs);
}

/**
 * The Redis address of a `--store` URL, and the prefix of this mock's keys (`?prefix=`, `membership-mock:`).
 * @example readStoreUrl('redis://localhost:6379/0?prefix=demo:').prefix // 'demo:'
 */
export function readStoreUrl(url: string): { address: string; prefix: string; snapshotEvery: number } {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new Error(`--store takes redis://host:port/db, not ${JSON.stringify(url)}.`);
  const prefix = parsed.searchParams.get('prefix') ?? 'membership-mock:';
  const every = parsed.searchParams.get('snapshotEvery');
  const snapshotEvery = every === null ? SNAPSHOT_EVERY : Number(every);
  if (!Number.isInteger(snapshotEvery) || snapshotEvery < 1)
    throw new Error(`snapshotEvery must be a whole number of log entries from 1, not ${JSON.stringify(every)}.`);
  parsed.search = '';
  return { address: parsed.toString(), prefix, snapshotEvery };
}
