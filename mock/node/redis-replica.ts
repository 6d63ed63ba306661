// A replica of the mock that shares its state, counters, overrides, faults and journal with the others through
// Redis (`--store redis://host:port/db`): each keeps its own copy, Redis keeps the ordered log of changes (a
// stream) and a short lock. See mock/docs/replicas.md.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { MockContext } from '../instance/mock-context.js';
import type { Replication, Unavailable } from '../instance/replication.js';
import { ReplicaChanges, type Change } from './replica-changes.js';
import { BEGIN, COMMIT, RELEASE } from './redis-scripts.js';
import { readStoreUrl, redactSecrets, redactUrl } from './redis-store-url.js';
import { quietly, WaitingRequests, type Work } from './waiting-requests.js';
import { counted } from '../lib/counted.js';

/** How a replica reaches Redis. */
export interface RedisStoreOptions {
  /** `redis://host:port/db`, `?prefix=name:` to keep this mock's keys apart from another's on the same server. */
  url: string;
  /** Milliseconds a command, or waiting for the lock, may take before a request is answered 503. @default 1000 */
  timeout?: number;
  /** Milliseconds the lock is held at most, should a replica die holding it. @default 5000 */
  lockTtl?: number;
}

/** A log entry: its id, and `['c', changes as JSON, 'p', the id of the entry before it]`. */
type Entry = [id: string, fields: string[]];

/** What a section wrote, to go out once its changes are published. */
type Write = Pick<Work, 'work' | 'unavailable'>;

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
  /** The store URL, to take its password out of every message. */
  readonly #url: string;
  /** The log's length after the last publish: past `#snapshotEvery`, the next one keeps a snapshot. */
  #logLength = 0;
  /** This replica, as the turn names it. */
  readonly #id = randomUUID();
  readonly #timeout: number;
  readonly #lockTtl: number;
  #applied = '0-0';
  readonly #waiting: WaitingRequests;
  #running = false;
  #writes: Write[] | undefined;
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
  /**
   * The copy cannot take the log where it stands (forgotten, or an entry did not follow the one applied): the
   * follower applies nothing until a section has begun, which starts it again from the snapshot or the log.
   */
  #stale = false;

  private constructor(
    readonly context: MockContext,
    { url, timeout = 1000, lockTtl = 5000 }: RedisStoreOptions,
  ) {
    const { address, prefix, snapshotEvery, maxQueued } = readStoreUrl(url);
    this.#url = url;
    this.#keys = ['lock', 'log', 'turn', 'snapshot', 'snapshot-id'].map((key) => prefix + key);
    this.#snapshotEvery = snapshotEvery;
    // A request answered 503 because its section, begun, did not open in time says the store is failing, as the
    // command's timeout would a moment later: a probe between the two answered ready while requests were refused.
    this.#waiting = new WaitingRequests(timeout, maxQueued, (count) =>
      this.#failed(new Error(`no section began within ${timeout} ms: ${counted(count, 'request')} answered 503`)),
    );
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
    const token = randomUUID();
    try {
      await Promise.all([replica.#redis.connect(), replica.#reader.connect()]);
      // A first section, with nothing to do: the log (or the snapshot and the log after it) applied.
      await replica.#begin(token);
      await replica.#commit(token, []);
    } catch (error) {
      // A BEGIN that timed out may still take the lock: let go of it rather than hold the others 5 s.
      if (replica.#redis.status === 'ready') await replica.#release(token);
      replica.close();
      const message = redactSecrets((error as Error).message, options.url);
      throw new Error(`Cannot use the Redis store at ${redactUrl(options.url)}: ${message}`);
    }
    context.replication = replica;
    void replica.#follow();
    return replica;
  }

  within(work: () => void, unavailable: (why?: Unavailable) => void): void {
    if (this.#writes) return work();
    this.#waiting.add(work, unavailable);
    if (!this.#running) void this.#drain();
  }

  afterPublish(write: () => void, unavailable: (why?: Unavailable) => void): void {
    if (this.#writes) this.#writes.push({ work: write, unavailable });
    else write();
  }

  /** Stops following the log and closes both connections. */
  close(): void {
    this.#closed = true;
    this.#waiting.close();
    this.#redis.disconnect();
    this.#reader.disconnect();
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.size > 0) {
        this.#open = true;
        await this.#section(this.#waiting.take(BATCH));
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
      await this.#begin(token, batch);
    } catch (error) {
      this.#failed(error as Error);
      // Redis may still run the BEGIN that timed out: this, sent after it, lets go of the lock it would take.
      void this.#release(token);
      // Redis does not answer: the requests waiting behind this batch would wait for it in vain as well.
      this.#waiting.failAll(batch);
      return;
    } finally {
      this.#waiting.began();
    }
    const writes: Write[] = [];
    this.#writes = writes;
    try {
      // A request's work answers its own errors; one that throws all the same is not left without an answer.
      for (const { work, unavailable, expired } of batch) {
        if (expired) continue;
        try {
          work();
        } catch {
          quietly(unavailable);
        }
      }
    } finally {
      this.#writes = undefined;
    }
    const published = await this.#commit(token, this.#changes.take()).then(
      () => {
        this.#answeredAt = Date.now();
        this.#changes.published();
        return true;
      },
      (error: Error) => {
        this.#failed(error);
        // A script that failed part way (or timed out) may leave the lock taken: not for 5 s.
        void this.#release(token);
        this.#forget();
        return false;
      },
    );
    for (const { work, unavailable } of writes) quietly(published ? work : () => unavailable('not-published'));
  }

  /** Lets go of the lock if this token holds it; a failure to is the lock's TTL's to mend. */
  async #release(token: string): Promise<void> {
    await this.#redis.eval(RELEASE, 1, this.#keys[0]!, token).catch(() => undefined);
  }

  /**
   * Takes the lock and applies the log since the last entry applied (all of it, or the snapshot and the log
   * after it, when the copy is stale); retries while another replica holds it, while a request of `batch` waits.
   */
  async #begin(token: string, batch: Work[] = []): Promise<void> {
    const until = Date.now() + this.#timeout;
    const args = [token, this.#lockTtl, this.#applied, this.#id, this.#timeout];
    for (;;) {
      if (this.#stale && this.#applied !== '0-0') this.#forget();
      args[2] = this.#applied;
      const got = (await this.#redis.eval(BEGIN, 5, ...this.#keys, ...args)) as [string, string, Entry[]] | null;
      if (got) {
        const [at, snapshot, entries] = got;
        this.#stale = false;
        if (at !== '') this.#restart(at, snapshot);
        if (this.#apply(entries)) return;
        // Under the lock the log cannot move: an entry that does not follow is a log changed behind the replicas.
        await this.#release(token);
        throw new Error('the log in Redis does not follow the entry this replica applied last');
      }
      if (Date.now() > until || (batch.length > 0 && batch.every((w) => w.expired)))
        throw new Error(`another replica held the lock for more than ${this.#timeout} ms`);
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

  /**
   * Applies entries of the log newer than the last applied, in order, each only onto the entry before it: at the
   * first that follows another (entries trimmed away unseen), the copy is stale and applies no more. Returns
   * whether every entry followed.
   */
  #apply(entries: Entry[]): boolean {
    for (const [id, fields] of entries) {
      if (!isAfter(id, this.#applied)) continue;
      if (fields[3] !== this.#applied) {
        this.#stale = true;
        return false;
      }
      this.#changes.apply(JSON.parse(fields[1]!) as Change[]);
      this.#applied = id;
    }
    return true;
  }

  /** Applies what other replicas publish as it comes, between sections: a wait here sees a call served there. */
  async #follow(): Promise<void> {
    while (!this.#closed) {
      try {
        // A stale copy is made again by a section: one starts now if none runs (a wait here still hears calls).
        if (this.#stale) {
          if (!this.#running) this.within(noWork, noWork);
          await sleep(100);
          continue;
        }
        const forgotten = this.#forgotten;
        const read = (await this.#reader.xread('BLOCK', 2000, 'STREAMS', this.#keys[1]!, this.#applied)) as
          [string, Entry[]][] | null;
        // Every read that returns, even empty after its 2 s, says Redis answers.
        this.#answeredAt = Date.now();
        if (!read) continue;
        // A section applies what it finds itself; read again once it is done.
        if (this.#open || forgotten !== this.#forgotten) await sleep(10);
        else this.#apply(read[0]![1]);
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
    this.#stale = true;
  }

  #failed(error: Error): void {
    this.#errors++;
    this.#failedAt = Date.now();
    this.#lastError = { message: redactSecrets(error.message, this.#url), at: new Date().toISOString() };
  }

  #health() {
    // Failing while a connection is down, or while the last failure (a command that timed out: Redis hung) is
    // newer than the last answer. Ready again as soon as Redis answers the follower or a reconnect: a probe that
    // took the traffic away brings no request to try.
    const down = this.#redis.status !== 'ready' || this.#reader.status !== 'ready';
    const failing = down || this.#failedAt >= this.#answeredAt;
    const lastError = this.#lastError ? { lastError: this.#lastError } : {};
    return { failing, errors: this.#errors, applied: this.#applied, ...lastError };
  }
}

function noWork(): void {}

/** Whether stream id `a` comes after `b` (`ms-seq`). */
function isAfter(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(Number) as [number, number];
  const [bm, bs] = b.split('-').map(Number) as [number, number];
  return am > bm || (am === bm && as > bs);
}
