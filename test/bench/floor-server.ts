// The bench's floors: servers that answer every benched route with one fixed JSON body of BODY_BYTES bytes
// and do no other work. FLOOR=http (default) is a bare node:http listener, the floor proper: nothing a
// Node server does can be cheaper. FLOOR=express is the same on Express 5, a typical framework's cost.
import { createServer } from 'node:http';

const port = Number(process.env.PORT);
const bodyBytes = Number(process.env.BODY_BYTES ?? 600);
const kind = process.env.FLOOR ?? 'http';

/** A JSON object of exactly `bytes` bytes (ASCII padding in one string field). */
const fixedBody = (bytes: number) => {
  const empty = '{"data":""}';
  return `{"data":"${'x'.repeat(Math.max(0, bytes - empty.length))}"}`;
};

const body = fixedBody(bodyBytes);
const listening = () => console.log(`floor: ${kind} on http://127.0.0.1:${port}, body ${body.length} bytes`);

if (kind === 'express') {
  const { default: express } = await import('express');
  const app = express();
  app.get('/members/:member_id/passes', (_req, res) => void res.type('application/json').send(body));
  app.get('/members/:member_id/passes/:pass_id', (_req, res) => void res.type('application/json').send(body));
  app.post('/members/:member_id/credentials', (_req, res) => void res.status(201).type('application/json').send(body));
  app.listen(port, '127.0.0.1', listening);
} else if (kind === 'http') {
  const bytes = Buffer.from(body);
  const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(bytes.length) };
  createServer((req, res) => {
    if (req.method === 'GET') return void res.writeHead(200, headers).end(bytes);
    if (req.method !== 'POST' || !req.url?.endsWith('/credentials')) return void res.writeHead(404).end();
    // Read the whole body before answering, as any server that takes one must.
    req.on('data', () => undefined);
    req.on('end', () => void res.writeHead(201, headers).end(bytes));
  }).listen(port, '127.0.0.1', listening);
} else {
  throw new Error(`FLOOR must be http or express, not "${kind}"`);
}

// Exit on SIGTERM (the default would too, but without writing a --cpu-prof profile).
process.on('SIGTERM', () => process.exit(0));
