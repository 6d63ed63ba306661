// The bench's floors: servers that answer each benched route with one fixed JSON body, of the size ours sends
// for it (BODY_LIST, BODY_READ, BODY_CREATE bytes; BODY_BYTES for any not given), and do no other work.
// FLOOR=http (default) is a bare node:http listener, the floor proper: nothing a Node server does can be
// cheaper. FLOOR=express is the same on Express 5, a typical framework's cost.
import { createServer } from 'node:http';
import { fixedBody } from './fixed-body.js';

const port = Number(process.env.PORT);
const bodyBytes = Number(process.env.BODY_BYTES ?? 600);
const kind = process.env.FLOOR ?? 'http';

const sized = (name: string) => fixedBody(Number(process.env[name] ?? bodyBytes));
const [list, read, create] = [sized('BODY_LIST'), sized('BODY_READ'), sized('BODY_CREATE')];
const listening = () =>
  console.log(`floor: ${kind} on http://127.0.0.1:${port}, bodies ${list.length}/${read.length}/${create.length} B`);

if (kind === 'express') {
  const { default: express } = await import('express');
  const app = express();
  app.get('/members/:member_id/passes', (_req, res) => void res.type('application/json').send(list));
  app.get('/members/:member_id/passes/:pass_id', (_req, res) => void res.type('application/json').send(read));
  app.post(
    '/members/:member_id/credentials',
    (_req, res) => void res.status(201).type('application/json').send(create),
  );
  app.listen(port, '127.0.0.1', listening);
} else if (kind === 'http') {
  const answer = (body: string) => {
    const bytes = Buffer.from(body);
    return { bytes, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes.length } };
  };
  const [listed, one, created] = [answer(list), answer(read), answer(create)];
  createServer((req, res) => {
    if (req.method === 'GET') {
      // A list is /members/{id}/passes (three segments), a read one segment more.
      const { bytes, headers } = req.url!.split('/').length > 4 ? one : listed;
      return void res.writeHead(200, headers).end(bytes);
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/credentials')) return void res.writeHead(404).end();
    // Read the whole body before answering, as any server that takes one must.
    req.on('data', () => undefined);
    req.on('end', () => void res.writeHead(201, created.headers).end(created.bytes));
  }).listen(port, '127.0.0.1', listening);
} else {
  throw new Error(`FLOOR must be http or express, not "${kind}"`);
}

// Exit on SIGTERM (the default would too, but without writing a --cpu-prof profile).
process.on('SIGTERM', () => process.exit(0));
