// A real redis-server (Debian's package) on a free port for a test, and a round-robin HTTP proxy in front of
// several mocks, as a load balancer spreads a demo's traffic over its replicas.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** A redis-server the test started: stop it (a clean shutdown) and start it again on the same port and folder. */
export class RedisServer {
  #child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    readonly dir: string,
    readonly persistent: boolean,
  ) {}

  /** `persistent`: an append-only file (fsync on every write), so what it held survives a stop. */
  static async start({ persistent = false } = {}): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), await mkdtemp(join(tmpdir(), 'mock-redis-')), persistent);
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  /** Starts it (again), and resolves once it accepts connections. */
  async restart(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', ''];
    args.push(...(this.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
    const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
    });
  }

  /** Sends it a signal: SIGSTOP makes it hang (connections open, no answer), SIGCONT lets it go on. */
  signal(signal: NodeJS.Signals): void {
    this.#child?.kill(signal);
  }

  /** Stops it with SIGTERM (it writes what it holds, then exits) and resolves once it has exited. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
}

/** A round-robin proxy: each request goes to the next target in turn; `served` counts each target's requests. */
export interface RoundRobin {
  url: string;
  served: number[];
  close(): Promise<void>;
}

export async function roundRobin(targets: string[]): Promise<RoundRobin> {
  const served = targets.map(() => 0);
  let next = 0;
  const server: Server = createServer((req, res) => {
    const at = next++ % targets.length;
    served[at]!++;
    const upstream = request(new URL(req.url!, targets[at]), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
