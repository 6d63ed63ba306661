// Replicas of the mock sharing one Redis (`--store redis://…`), behind a round-robin proxy as a load balancer
// puts them: real processes (the built CLI), a real redis-server, real sockets.
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess, runCli } from '../support/cli-process.js';
import { freePort } from '../support/free-port.js';
import { AUTH } from '../support/harness.js';
import { RedisServer, roundRobin, type RoundRobin } from '../support/redis-server.js';

const PASSES = '/members/m1/passes';

/** `count` replicas of the CLI on one Redis, under a key prefix of their own (and the store URL's `more`). */
async function startReplicas(redis: RedisServer, count: number, prefix: string, more = ''): Promise<CliProcess[]> {
  const store = `${redis.url}?prefix=${prefix}${more}`;
  const args = ['--port', '0', '--log', 'off', '--no-watch', '--store', store];
  return Promise.all(Array.from({ length: count }, () => CliProcess.start(args, { contract: DEFAULT_CONTRACT })));
}

/** {@link startReplicas} for one test: killed when it finishes, passed or failed (paused ones too). */
async function replicas(redis: RedisServer, count: number, prefix: string, more = ''): Promise<CliProcess[]> {
  const mocks = await startReplicas(redis, count, prefix, more);
  onTestFinished(() => Promise.all(mocks.map((m) => m.stop('SIGKILL'))).then(() => undefined));
  return mocks;
}

/** A redis-server for one test, stopped when it finishes (woken first, should the test have paused it). */
async function redisServer(options?: Parameters<typeof RedisServer.start>[0]): Promise<RedisServer> {
  const redis = await RedisServer.start(options);
  onTestFinished(async () => {
    redis.signal('SIGCONT');
    await redis.stop();
  });
  return redis;
}

/** A request as a test's client sends it: in its own session, failing instead of hanging. */
function send(url: string, session: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...AUTH, ...(session === '' ? {} : { 'X-Mock-Session': session }), 'Content-Type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(10_000),
  });
}

async function countOf(url: string, session: string): Promise<number> {
  return ((await (await send(`${url}/__mock/calls/count`, session)).json()) as { count: number }).count;
}

describe('three replicas behind a round-robin proxy', () => {
  let redis: RedisServer;
  let mocks: CliProcess[];
  let proxy: RoundRobin;

  beforeAll(async () => {
    redis = await RedisServer.start();
    mocks = await startReplicas(redis, 3, 'three:');
    proxy = await roundRobin(mocks.map((m) => m.url));
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all((mocks ?? []).map((m) => m.stop('SIGKILL')));
    await redis?.stop();
  });

  test('a pass created through one replica is listed through each of the others', async () => {
    const created = await send(`${proxy.url}${PASSES}`, 'create', { method: 'POST', body: { name: 'Shared' } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const lists = await Promise.all(
      [0, 1].map(async () => {
        const listed = (await (await send(`${proxy.url}${PASSES}`, 'create')).json()) as { data: { id: string }[] };
        return listed.data.map((p) => p.id);
      }),
    );
    for (const ids of lists) expect(ids).toContain(id);
    // Every replica's journal holds the three calls, whichever served them.
    const counts = await Promise.all(mocks.map((m) => countOf(m.url, 'create')));
    console.log(`replicas: served per replica ${proxy.served.join('/')}, calls in each journal ${counts.join('/')}`);
    expect(counts).toEqual([3, 3, 3]);
  });

  test('thirty calls spread over the three replicas are each in every journal, once', async () => {
    const before = [...proxy.served];
    for (let i = 0; i < 30; i++) expect((await send(`${proxy.url}${PASSES}`, 'spread')).status).toBe(200);
    const served = proxy.served.map((n, i) => n - before[i]!);
    const counts = await Promise.all(mocks.map((m) => countOf(m.url, 'spread')));
    console.log(`replicas: 30 calls, served per replica ${served.join('/')}, in each journal ${counts.join('/')}`);
    expect(served).toEqual([10, 10, 10]);
    expect(counts).toEqual([30, 30, 30]);
  });

  test('an override for one call set through one replica is used exactly once across all of them', async () => {
    const set = await send(`${proxy.url}/__mock/overrides`, 'once', {
      method: 'POST',
      body: { operationId: 'listPasses', status: 500, times: 1 },
    });
    expect(set.status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(`${proxy.url}${PASSES}`, 'once')).status);
    expect(statuses.filter((s) => s === 500)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    for (const mock of mocks) {
      const listed = (await (await send(`${mock.url}/__mock/overrides`, 'once')).json()) as { overrides: unknown[] };
      expect(listed.overrides).toEqual([]);
    }
  });

  test('a reset from one replica clears the calls and state every replica has', async () => {
    await send(`${mocks[0]!.url}${PASSES}`, 'reset', { method: 'POST', body: { name: 'Gone' } });
    await send(`${mocks[1]!.url}${PASSES}`, 'reset');
    expect(await countOf(mocks[2]!.url, 'reset')).toBe(2);
    expect((await send(`${mocks[2]!.url}/__mock/reset`, 'reset', { method: 'POST' })).status).toBe(204);
    const counts = await Promise.all(mocks.map((m) => countOf(m.url, 'reset')));
    expect(counts).toEqual([0, 0, 0]);
    const listed = (await (await send(`${mocks[0]!.url}${PASSES}`, 'reset')).json()) as { data: { name: string }[] };
    expect(listed.data.map((p) => p.name)).not.toContain('Gone');
  });

  test('a wait on one replica resolves for a call another replica served', async () => {
    const waiting = send(`${mocks[0]!.url}/__mock/calls/wait`, 'wait', {
      method: 'POST',
      body: { match: { operationId: 'listCredentials' }, timeout: 5000 },
    });
    // The wait is open once the replica counts it (GET /__mock/sessions lists open waits per session).
    await expect.poll(async () => waitersOn(mocks[0]!.url), { timeout: 5000, interval: 20 }).toBe(1);
    expect((await send(`${mocks[1]!.url}/members/m1/credentials`, 'wait')).status).toBe(200);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    const { call } = (await answer.json()) as { call: { operationId: string } };
    expect(call.operationId).toBe('listCredentials');
  });
});

async function waitersOn(url: string, session = 'wait'): Promise<number> {
  const { sessions } = (await (await send(`${url}/__mock/sessions`, session)).json()) as {
    sessions: { name: string; waiters: number }[];
  };
  return sessions.find((s) => s.name === session)?.waiters ?? 0;
}

describe('two replicas that never served a request', () => {
  test('give overrides set through each ids of their own', async () => {
    const redis = await redisServer();
    const mocks = await replicas(redis, 2, 'ids:');
    const spec = { operationId: 'getPass', status: 404 };
    const ids = [];
    for (const mock of mocks) {
      const set = await send(`${mock.url}/__mock/overrides`, 'ids', { method: 'POST', body: spec });
      expect(set.status).toBe(201);
      ids.push(((await set.json()) as { id: string }).id);
    }
    // Each process numbers from 1: the second is past the first only because it sees it in force.
    expect(ids).toEqual(['override-1', 'override-2']);
  }, 60_000);
});

describe('a replica stopped (SIGSTOP) while the other publishes past a trim', () => {
  /**
   * Two replicas trimming the log on every publish; B current with P0 and waiting (default session) for a
   * getPass; B stopped while A creates P1 to P3 and gets P3. Resolves once B, let go on, heard the getPass.
   */
  async function behind(redis: RedisServer): Promise<{ a: CliProcess; b: CliProcess; mocks: CliProcess[] }> {
    const mocks = await replicas(redis, 2, 'behind:', '&snapshotEvery=1');
    const [a, b] = mocks as [CliProcess, CliProcess];
    expect((await send(`${a.url}${PASSES}`, '', { method: 'POST', body: { name: 'P0' } })).status).toBe(201);
    const waiting = send(`${b.url}/__mock/calls/wait`, '', {
      method: 'POST',
      body: { match: { operationId: 'getPass' }, timeout: 8000 },
    });
    await expect.poll(async () => waitersOn(b.url, ''), { timeout: 5000, interval: 20 }).toBe(1);
    b.child.kill('SIGSTOP');
    let id = '';
    for (const name of ['P1', 'P2', 'P3']) {
      const created = await send(`${a.url}${PASSES}`, '', { method: 'POST', body: { name } });
      id = ((await created.json()) as { id: string }).id;
    }
    expect((await send(`${a.url}${PASSES}/${id}`, '')).status).toBe(200);
    b.child.kill('SIGCONT');
    expect((await waiting).status).toBe(200);
    return { a, b, mocks };
  }

  test('B applies nothing that does not follow what it holds, and serves every record once it runs again', async () => {
    const redis = await redisServer();
    const stopped = await behind(redis);
    const listed = (await (await send(`${stopped.b.url}${PASSES}?limit=100`, '')).json()) as {
      data: { name?: string }[];
    };
    expect(listed.data.map((p) => p.name).filter(Boolean)).toEqual(expect.arrayContaining(['P0', 'P1', 'P2', 'P3']));
    expect(await countOf(stopped.b.url, '')).toBe(await countOf(stopped.a.url, ''));
  }, 60_000);

  test("B's coverage counts each call once, though B made its copy again from the snapshot", async () => {
    const redis = await redisServer();
    const stopped = await behind(redis);
    const coverage = async (url: string) => (await send(`${url}/__mock/coverage`, '')).json();
    expect(await coverage(stopped.b.url)).toEqual(await coverage(stopped.a.url));
  }, 60_000);
});

describe('a state put through one replica', () => {
  test('is served by the other as soon as the PUT is answered, however large', async () => {
    const redis = await redisServer();
    const mocks = await replicas(redis, 2, 'put:');
    const [a, b] = mocks as [CliProcess, CliProcess];
    const passes = Array.from({ length: 900 }, (_, i) => ({ name: `S${i}` }));
    const body = { collections: { [PASSES]: passes } };
    const put = await send(`${a.url}/__mock/state`, 'put', { method: 'PUT', body });
    expect(put.status).toBe(200);
    const listed = (await (await send(`${b.url}/__mock/state${PASSES}`, 'put')).json()) as { records: unknown[] };
    expect(listed.records).toHaveLength(900);
  }, 60_000);
});

describe('a replica started after a reset, the log trimmed behind it', () => {
  test('numbers its calls after the ones made before the reset', async () => {
    const redis = await redisServer();
    const mocks = await replicas(redis, 1, 'numbers:', '&snapshotEvery=1');
    for (let i = 0; i < 3; i++) expect((await send(`${mocks[0]!.url}${PASSES}`, '')).status).toBe(200);
    expect((await send(`${mocks[0]!.url}/__mock/reset`, '', { method: 'POST' })).status).toBe(204);
    const [late] = await replicas(redis, 1, 'numbers:', '&snapshotEvery=1');
    expect((await send(`${late!.url}${PASSES}`, '')).status).toBe(200);
    const { calls } = (await (await send(`${late!.url}/__mock/calls`, '')).json()) as { calls: { id: string }[] };
    expect(calls.map((c) => c.id)).toEqual(['call-4']);
  }, 60_000);
});

describe('a --store URL with a password', () => {
  test('never shows the password: a replica that cannot reach Redis names the URL without it', async () => {
    const port = await freePort();
    const store = `redis://app:s3cret-pw@127.0.0.1:${port}/0`;
    const args = ['--port', '0', '--log', 'off', '--no-watch', '--store', store];
    const { code, stdout, stderr } = await runCli(args);
    expect(code).not.toBe(0);
    expect(stdout + stderr).not.toContain('s3cret-pw');
    expect(stderr).toContain(`redis://***@127.0.0.1:${port}/0`);
  });
});

describe('the Redis server stopped while two replicas serve', () => {
  test('requests answer 503 store-unavailable, readiness fails, and both serve what they had once it is back', async () => {
    const redis = await redisServer({ persistent: true });
    const mocks = await replicas(redis, 2, 'away:');
    const [a, b] = mocks as [CliProcess, CliProcess];
    const created = await send(`${a.url}${PASSES}`, 'away', { method: 'POST', body: { name: 'Kept' } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    await redis.stop();
    const started = Date.now();
    const refused = await Promise.all([
      send(`${a.url}${PASSES}`, 'away', { method: 'POST', body: {} }),
      send(`${b.url}${PASSES}`, 'away'),
    ]);
    const took = Date.now() - started;
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(((await answer.json()) as { type: string }).type).toBe('https://example.com/problems/store-unavailable');
    }
    expect(took).toBeLessThan(3000);
    for (const mock of mocks) expect((await fetch(`${mock.url}/__mock/health/ready`)).status).toBe(503);

    await redis.restart();
    const back = Date.now();
    for (const mock of mocks)
      await expect
        .poll(async () => (await fetch(`${mock.url}/__mock/health/ready`)).status, { timeout: 10_000, interval: 50 })
        .toBe(200);
    const recovered = Date.now() - back;
    const listed = (await (await send(`${b.url}${PASSES}`, 'away')).json()) as { data: { id: string }[] };
    expect(listed.data.map((p) => p.id)).toContain(id);
    // The two answered 503 were never journaled; the create and this list were.
    const { calls } = (await (await send(`${a.url}/__mock/calls`, 'away')).json()) as {
      calls: { method: string; response: { status: number } }[];
    };
    expect(calls.map((c) => `${c.method} ${c.response.status}`)).toEqual(['POST 201', 'GET 200']);
    console.log(`redis away: 2 answers 503 in ${took} ms; both ready again ${recovered} ms after it restarted`);
  }, 60_000);
});

describe('the log in Redis', () => {
  test('is trimmed behind a snapshot, and a replica started later serves everything from it', async () => {
    const redis = await redisServer();
    const mocks = await replicas(redis, 2, 'trim:', '&snapshotEvery=5');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const created = await send(`${mocks[i % 2]!.url}${PASSES}`, 'trim', {
        method: 'POST',
        body: { name: `P${i}` },
      });
      ids.push(((await created.json()) as { id: string }).id);
    }
    // Every publish past 5 entries keeps a snapshot and trims the log before it.
    expect(await logLength(redis)).toBeLessThanOrEqual(6);
    const [late] = await replicas(redis, 1, 'trim:', '&snapshotEvery=5');
    const listed = (await (await send(`${late!.url}${PASSES}?limit=100`, 'trim')).json()) as {
      data: { id: string }[];
    };
    expect(listed.data.map((p) => p.id)).toEqual(expect.arrayContaining(ids));
    expect(await countOf(late!.url, 'trim')).toBe(13);
  }, 60_000);
});

describe('a replica started later', () => {
  // The sessions' order is what the session limit evicts by (the least recently used first): a replica that
  // makes them again from the log, or from a snapshot after the log was trimmed, keeps the same order.
  test.each([
    ['the log', 100],
    ['a snapshot', 2],
  ])(
    'holds the sessions in the order they were last used, made again from %s',
    async (_, snapshotEvery) => {
      const redis = await redisServer();
      const prefix = `recency${snapshotEvery}:`;
      const [first] = await replicas(redis, 1, prefix, `&snapshotEvery=${snapshotEvery}`);
      for (const name of ['s1', 's2', 's3', 's1'])
        expect((await send(`${first!.url}${PASSES}`, name)).status).toBe(200);
      const byUse = async (url: string) => {
        const listed = (await (await send(`${url}/__mock/sessions`, '')).json()) as { sessions: { name: string }[] };
        return listed.sessions.map((session) => session.name).filter((name) => name !== '');
      };
      expect(await byUse(first!.url)).toEqual(['s2', 's3', 's1']);
      const [late] = await replicas(redis, 1, prefix, `&snapshotEvery=${snapshotEvery}`);
      expect(await byUse(late!.url)).toEqual(['s2', 's3', 's1']);
    },
    60_000,
  );
});

/** How many entries the log of the `trim:` mocks holds, asked of Redis itself. */
async function logLength(redis: RedisServer): Promise<number> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redis.url);
  try {
    return await client.xlen('trim:log');
  } finally {
    client.disconnect();
  }
}

describe('a Redis server that stops answering (SIGSTOP)', () => {
  test('requests answer 503 within the timeout, readiness fails, and both come back when it answers again', async () => {
    const redis = await redisServer();
    const [mock] = (await replicas(redis, 1, 'hung:')) as [CliProcess];
    expect((await send(`${mock.url}${PASSES}`, 'hung')).status).toBe(200);
    redis.signal('SIGSTOP');
    const started = Date.now();
    const answer = await send(`${mock.url}${PASSES}`, 'hung', { method: 'POST', body: {} });
    const took = Date.now() - started;
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { type: string }).type).toBe('https://example.com/problems/store-unavailable');
    // The timeout is 1 s: one command, or waiting for the lock.
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(2500);
    // Not ready from the moment a request is refused: its own deadline (it waited for a section) marks Redis
    // failing as the command's timeout does, and a probe sent after the 503 used to find it ready a few ms.
    expect((await fetch(`${mock.url}/__mock/health/ready`)).status).toBe(503);
    redis.signal('SIGCONT');
    await expect
      .poll(async () => (await fetch(`${mock.url}/__mock/health/ready`)).status, { timeout: 10_000, interval: 50 })
      .toBe(200);
    expect((await send(`${mock.url}${PASSES}`, 'hung')).status).toBe(200);
    console.log(`redis hung: answered 503 in ${took} ms`);
  }, 60_000);
});

describe('requests waiting while Redis hangs (SIGSTOP)', () => {
  test('two hundred at once are each answered 503 within the timeout, not one batch after another', async () => {
    const redis = await redisServer();
    const [mock] = (await replicas(redis, 1, 'queue:')) as [CliProcess];
    redis.signal('SIGSTOP');
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const answer = await send(`${mock.url}${PASSES}`, 'queue');
        return { status: answer.status, ms: Date.now() - started };
      }),
    );
    const ms = answers.map((a) => a.ms).sort((x, y) => x - y);
    console.log(`redis hung, 200 requests: first 503 after ${ms[0]} ms, median ${ms[100]}, last ${ms[199]}`);
    expect(answers.every((a) => a.status === 503)).toBe(true);
    // The timeout is 1 s; before the queue had deadlines, each batch of 64 waited for the one before (5.5 s).
    expect(ms[199]).toBeLessThan(2500);
  }, 60_000);

  test('past ?maxQueued= waiting, a request is answered 503 at once, saying why', async () => {
    const redis = await redisServer();
    const [mock] = (await replicas(redis, 1, 'full:', '&maxQueued=10')) as [CliProcess];
    // The first to arrive has its section begin (and hang), ten wait behind it, twenty find the queue full.
    redis.signal('SIGSTOP');
    const answers = await Promise.all(
      Array.from({ length: 31 }, async () => {
        const answer = await send(`${mock.url}${PASSES}`, 'full');
        return { status: answer.status, detail: ((await answer.json()) as { detail: string }).detail };
      }),
    );
    expect(answers.every((a) => a.status === 503)).toBe(true);
    expect(answers.filter((a) => a.detail.includes('maxQueued'))).toHaveLength(20);
  }, 60_000);
});

describe("a publish that fails (Redis refuses XADD to the replica's user)", () => {
  test('a delayed answer whose section could not publish is answered 503, and what it did is undone', async () => {
    const redis = await redisServer();
    const { Redis } = await import('ioredis');
    const admin = new Redis(redis.url);
    await admin.call('ACL', 'SETUSER', 'mock', 'on', '>pw', '~*', '&*', '+@all');
    const store = `redis://mock:pw@127.0.0.1:${redis.port}/0?prefix=refused:`;
    const mock = await CliProcess.start(['--port', '0', '--log', 'off', '--no-watch', '--store', store], {
      contract: DEFAULT_CONTRACT,
    });
    try {
      const delayed = { operationId: 'createPass', delay: 1500 };
      expect((await send(`${mock.url}/__mock/overrides`, 'refused', { method: 'POST', body: delayed })).status).toBe(
        201,
      );
      await admin.call('ACL', 'SETUSER', 'mock', '-xadd');
      const created = send(`${mock.url}${PASSES}`, 'refused', { method: 'POST', body: { name: 'Undone' } });
      // The section that decided the answer failed to publish (the health counts it); Redis takes it again.
      await expect.poll(async () => errorsOf(mock.url), { timeout: 5000, interval: 20 }).toBeGreaterThan(0);
      await admin.call('ACL', 'SETUSER', 'mock', '+xadd');
      const answer = await created;
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { detail: string }).detail).toContain('may or may not');
      // The failed publish let go of the lock: the replica serves at once, without the create.
      const list = await send(`${mock.url}${PASSES}?limit=100`, 'refused');
      expect(list.status).toBe(200);
      const listed = (await list.json()) as { data: { name?: string }[] };
      expect(listed.data.map((p) => p.name)).not.toContain('Undone');
    } finally {
      admin.disconnect();
      await mock.stop('SIGKILL');
    }
  }, 60_000);
});

async function errorsOf(url: string): Promise<number> {
  const health = (await (await send(`${url}/__mock/health`, '')).json()) as { state: { errors?: number } };
  return health.state.errors ?? 0;
}
