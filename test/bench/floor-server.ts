// The bench's floors: servers that answer each benched route with one fixed JSON body, of the size ours sends
// for it (BODY_LIST, BODY_READ, BODY_CREATE bytes; BODY_BYTES for any not given), and do no other work.
// FLOOR=http (default) is a bare node:http listener, the floor proper: nothing a Node server does can be
// cheaper. FLOOR=express is the same on Express 5, a typical framework's cost. FLOOR=handmade answers the GETs
// as the floor does, and the create by doing, by hand for this one operation, the work a create must do (read
// and parse the body, check it, draw the id, store the record, journal the call, log a line, answer with its
// Location): the least a create costs on node:http, with no contract, no generality and no option.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Ajv } from 'ajv';
import { fixedBody } from './fixed-body.js';

const port = Number(process.env.PORT);
const bodyBytes = Number(process.env.BODY_BYTES ?? 600);
const kind = process.env.FLOOR ?? 'http';

const jsonType = { 'Content-Type': 'application/json; charset=utf-8' };
const problemType = { 'Content-Type': 'application/problem+json' };
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
} else if (kind === 'handmade') {
  const create = handmadeCreate();
  createServer((req, res) => {
    if (req.method === 'GET')
      return void res.writeHead(200, jsonType).end(req.url!.split('/').length > 4 ? read : list);
    create(req, res);
  }).listen(port, '127.0.0.1', listening);
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
  throw new Error(`FLOOR must be http, express or handmade, not "${kind}"`);
}

/**
 * `POST /members/{member_id}/credentials`, written by hand as a service's own mock would be: the body checked
 * against CredentialCreate (compiled once by ajv), a credential made as the contract describes it, kept per member,
 * the call kept in a journal of 10,000, a log line written, the record answered with its Location.
 */
function handmadeCreate() {
  const check = new Ajv().compile({
    type: 'object',
    additionalProperties: false,
    required: ['kind'],
    properties: {
      kind: { enum: ['pin', 'card', 'mobile'] },
      label: { type: 'string', minLength: 1, maxLength: 100 },
    },
  });
  const members = new Map<string, object[]>();
  const journal: object[] = new Array(10_000);
  let calls = 0;
  const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const newId = () => {
    let id = 'crd_';
    for (let i = 0; i < 26; i++) id += CROCKFORD[(Math.random() * 32) | 0];
    return id;
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const path = /^\/members\/([^/]+)\/credentials$/.exec(req.url!);
    if (req.method !== 'POST' || path === null) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: { kind: string; label?: string };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        return void res.writeHead(400, problemType).end('{"title":"not JSON"}');
      }
      if (!check(body)) return void res.writeHead(422, problemType).end(JSON.stringify(check.errors));
      const memberId = decodeURIComponent(path[1]!);
      const record = Object.freeze({
        id: newId(),
        member_id: memberId,
        kind: body.kind,
        label: body.label ?? null,
        created_at: new Date().toISOString(),
        last_used_at: null,
      });
      const kept = members.get(memberId);
      if (kept === undefined) members.set(memberId, [record]);
      else kept.push(record);
      const reply = JSON.stringify(record);
      journal[calls++ % journal.length] = {
        number: calls,
        time: Date.now(),
        method: req.method,
        path: req.url,
        headers: req.headers,
        body: text,
        status: 201,
        reply,
      };
      process.stdout.write(`POST ${req.url} 201 ${(performance.now() - started).toFixed(1)} ms\n`);
      res
        .writeHead(201, {
          ...jsonType,
          'Content-Length': Buffer.byteLength(reply),
          Location: `/members/${path[1]}/credentials/${record.id}`,
        })
        .end(reply);
    });
  };
}

// Exit on SIGTERM (the default would too, but without writing a --cpu-prof profile).
process.on('SIGTERM', () => process.exit(0));
