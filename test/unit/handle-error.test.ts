import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test, vi } from 'vitest';
import type { Exchange } from '../../mock/handler/exchange.js';
import { handleError } from '../../mock/handler/handle-error.js';
import { sendReply } from '../../mock/handler/send-reply.js';
import type { Reply } from '../../mock/http/reply.js';
import type { MockContext } from '../../mock/instance/mock-context.js';

describe('handleError', () => {
  const brokenJournal = {
    record: () => {
      throw new Error('the journal is broken');
    },
  };
  const exchange = (res: ServerResponse) =>
    ({
      req: { headers: {} } as IncomingMessage,
      res,
      method: 'GET',
      path: '/p',
      rawQuery: '',
      query: {},
      requestId: 'r',
      session: { journal: brokenJournal },
      headers: ['X-Request-Id', 'r'],
    }) as unknown as Exchange;
  const context = { options: { bodyLimit: 1024 } } as MockContext;
  const finish = (ex: Exchange, reply: Reply) => sendReply(ex, { reply });

  test('answers the problem even when the call cannot be recorded, and logs why', () => {
    const writeHead = vi.fn();
    const res = { headersSent: false, writeHead, end: vi.fn(), destroy: vi.fn() } as unknown as ServerResponse;
    const log = vi.fn();
    handleError(context, exchange(res), new Error('first failure'), finish, log);
    expect(writeHead).toHaveBeenCalledWith(500, expect.any(Array));
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/could not record GET \/p: Error: the journal is broken/));
  });

  test('never throws: when even the answer fails, it logs and closes the connection', () => {
    const destroy = vi.fn();
    const res = { headersSent: false, destroy } as unknown as ServerResponse;
    const log = vi.fn();
    expect(() => handleError(context, exchange(res), new Error('first failure'), finish, log)).not.toThrow();
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/unexpected error on GET \/p: Error: first failure/));
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/could not answer GET \/p after an error: TypeError/));
    expect(destroy).toHaveBeenCalledOnce();
  });
});
