import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { AUTH, newMock } from '../support/harness.js';

describe('the request log', () => {
  test('pretty: one line with method, path, operationId, status and ms', async () => {
    const lines: string[] = [];
    const mock = await newMock({ log: 'pretty', logTo: (line) => lines.push(line) });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).get('/nowhere').expect(404);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/members\/m1\/passes listPasses 200 \d+(\.\d+)?ms [0-9a-f-]{36}$/);
    expect(lines[1]).toMatch(/^GET \/nowhere - 404 /);
  });

  test('json: one object per line', async () => {
    const lines: string[] = [];
    const mock = await newMock({ log: 'json', logTo: (line) => lines.push(line) });
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'pin' }).expect(201);
    expect(JSON.parse(lines[0]!)).toEqual({
      time: expect.any(String),
      level: 'info',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'POST',
      path: '/members/m1/credentials',
      operationId: 'createCredential',
      status: 201,
      ms: expect.any(Number),
    });
  });

  test('a logTo that throws loses its line, never the answer or the process', async () => {
    let attempts = 0;
    const mock = await newMock({
      log: 'pretty',
      logTo: () => {
        attempts++;
        throw new Error('the log disk is full');
      },
    });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(attempts).toBe(2);
  });

  test('off by default in-process', async () => {
    const lines: string[] = [];
    const mock = await newMock({ logTo: (line) => lines.push(line) });
    await request(mock.app).get('/members/m1/passes').set(AUTH);
    expect(lines).toEqual([]);
  });
});
