// Many requests to one server over a pool of keep-alive connections, as a busy front-end or a load test sends them.
import { Agent, request as httpRequest } from 'node:http';
import { AUTH } from './harness.js';

/** A client of one server: JSON requests with a bearer token over `sockets` keep-alive connections. */
export interface KeepAliveClient {
  /** Sends a request (a JSON body when given) and reads the whole answer, parsed when it has one. */
  send(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Runs the jobs with at most `sockets` in flight at once; results in the jobs' order. */
  pool<T>(jobs: (() => Promise<T>)[]): Promise<T[]>;
  close(): void;
}

export function keepAliveClient(url: () => string, sockets: number): KeepAliveClient {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  return {
    send: (method, path, body) =>
      new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const headers = {
          ...AUTH,
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
        };
        const req = httpRequest(`${url()}${path}`, { method, agent, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
        });
        req.on('error', reject);
        req.end(payload);
      }),
    async pool(jobs) {
      const results: Awaited<ReturnType<(typeof jobs)[number]>>[] = new Array(jobs.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: sockets }, async () => {
          while (next < jobs.length) {
            const i = next++;
            results[i] = await jobs[i]!();
          }
        }),
      );
      return results;
    },
    close: () => agent.destroy(),
  };
}
