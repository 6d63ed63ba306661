// The bench's floor: a bare Express 5 server answering every benched route with one fixed JSON body of BODY_BYTES bytes.
import express from 'express';

const port = Number(process.env.PORT);
const bodyBytes = Number(process.env.BODY_BYTES ?? 600);

/** A JSON object of exactly `bytes` bytes (ASCII padding in one string field). */
const fixedBody = (bytes: number) => {
  const empty = '{"data":""}';
  return `{"data":"${'x'.repeat(Math.max(0, bytes - empty.length))}"}`;
};

const body = fixedBody(bodyBytes);
const app = express();
app.get('/members/:member_id/passes', (_req, res) => void res.type('application/json').send(body));
app.get('/members/:member_id/passes/:pass_id', (_req, res) => void res.type('application/json').send(body));
app.post('/members/:member_id/credentials', (_req, res) => void res.status(201).type('application/json').send(body));
app.listen(port, '127.0.0.1', () =>
  console.log(`floor: express on http://127.0.0.1:${port}, body ${body.length} bytes`),
);
