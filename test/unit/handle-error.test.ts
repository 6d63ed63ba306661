import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test, vi } from 'vitest';
import type { Exchange } from '../../mock/handler/exchange.js';
import { handleError } from '../../mock/handler/handle-error.js';
import type { MockContext } from '../../mock/instance/mock-context.js';

describe('handleError', () => {
  test('never throws: when even the answer fails, it logs and closes the connection', () => {
    const destroy = vi.fn();
    const res = { headersSent: false, destroy } as unknown as ServerResponse;
    const journal = {
      record: () => {
        throw new Error('the journal is broken');
      },
    };
    const ex = {
      req: { headers: {} } as IncomingMessage,
      res,
      method: 'GET',
      path: '/p',
      rawQuery: '',
      query: {},
      requestId: 'r',
      session: { journal },
      headers: ['X-Request-Id', 'r'],
    } as unknown as Exchange;
    const context = { options: { bodyLimit: 1024 } } as MockContext;
    const log = vi.fn();
    expect(() => handleError(context, ex, new Error('first failure'), log)).not.toThrow();
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/unexpected error on GET \/p: Error: first failure/));
    expect(log).toHaveBeenCalledWith(
      expect.stringMatching(/could not answer GET \/p after an error: Error: the journal is broken/),
    );
    expect(destroy).toHaveBeenCalledOnce();
  });
});
