// A real backend for the proxy's tests: a node:http server on a free port that records what reached it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the upstream received it, its body byte for byte. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  body: Buffer;
  /** Resolves when the request's connection closed before an answer was sent (the proxy cut it). */
  aborted: Promise<void>;
}

export interface Upstream {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/**
 * Starts a backend whose `answer` sees each request once its body has arrived.
 * @example const up = await startUpstream((req, res) => res.writeHead(204).end());
 */
export async function startUpstream(
  answer: (req: Received, res: ServerResponse) => void,
  path = '',
): Promise<Upstream> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let aborted!: () => void;
    const cut = new Promise<void>((resolve) => (aborted = resolve));
    res.once('close', () => {
      if (!res.writableFinished) aborted();
    });
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: Received = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
        aborted: cut,
      };
      received.push(seen);
      answer(seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL where nothing listens: a port taken and let go. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
