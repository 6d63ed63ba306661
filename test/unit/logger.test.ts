import { describe, expect, test } from 'vitest';
import { createLogger, type LogLevel } from '../../mock/instance/logger.js';

/** A logger of `format` whose lines are kept with their level. */
function capture(format: 'pretty' | 'json' | 'off') {
  const lines: [LogLevel, string][] = [];
  return { lines, logger: createLogger(format, (line, level) => lines.push([level, line])) };
}

const REQUEST = { requestId: 'r1', method: 'GET', path: '/p', operationId: 'getP', status: 200, ms: 1.5 };

describe('the logger', () => {
  test('json: an event is one object with time, level, msg and its fields', () => {
    const { lines, logger } = capture('json');
    logger.warn('the example "one" breaks its schema', { operationId: 'getP' });
    expect(lines).toHaveLength(1);
    const [level, line] = lines[0]!;
    expect(level).toBe('warn');
    expect(JSON.parse(line)).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: 'warn',
      msg: 'the example "one" breaks its schema',
      operationId: 'getP',
    });
  });

  test('json: a message over several lines (a YAML excerpt) stays one line', () => {
    const { lines, logger } = capture('json');
    logger.error('the contract edit was not loaded:\n  1 | openapi: [3.0\n    ^');
    expect(lines[0]![1]).not.toContain('\n');
    expect(JSON.parse(lines[0]![1]).msg).toContain('1 | openapi: [3.0');
  });

  test("json: an event's fields cannot overwrite its time, level or msg", () => {
    const { lines, logger } = capture('json');
    logger.info('news', { level: 'error', msg: 'other', time: 'never', kept: 1 });
    expect(JSON.parse(lines[0]![1])).toMatchObject({ level: 'info', msg: 'news', kept: 1 });
    expect(JSON.parse(lines[0]![1]).time).not.toBe('never');
  });

  test.each(['pretty', 'off'] as const)('%s: events are text, a warning says so', (format) => {
    const { lines, logger } = capture(format);
    logger.info('serving', { url: 'http://x' });
    logger.warn('listening on 0.0.0.0');
    logger.error('port 4010 is in use');
    expect(lines).toEqual([
      ['info', 'membership-mock: serving'],
      ['warn', 'membership-mock: warning: listening on 0.0.0.0'],
      ['error', 'membership-mock: port 4010 is in use'],
    ]);
  });

  test('json: a request line is an object at level info; a drop has no status', () => {
    const { lines, logger } = capture('json');
    logger.request(REQUEST);
    logger.request({ ...REQUEST, status: null, fault: 'drop' });
    expect(lines.map(([level, line]) => [level, JSON.parse(line)])).toEqual([
      ['info', { time: expect.any(String), level: 'info', ...REQUEST }],
      ['info', { time: expect.any(String), level: 'info', ...REQUEST, status: null, fault: 'drop' }],
    ]);
  });

  test('pretty: a request line reads left to right, a fault at its end', () => {
    const { lines, logger } = capture('pretty');
    logger.request(REQUEST);
    logger.request({ ...REQUEST, status: null, fault: 'drop' });
    expect(lines.map(([, line]) => line)).toEqual(['GET /p getP 200 1.5ms r1', 'GET /p getP - 1.5ms r1 [fault: drop]']);
  });

  test('off: no request lines', () => {
    const { lines, logger } = capture('off');
    logger.request(REQUEST);
    expect(lines).toEqual([]);
  });

  test('a sink that throws loses its line, never the caller', () => {
    const logger = createLogger('json', () => {
      throw new Error('EPIPE');
    });
    expect(() => logger.error('x')).not.toThrow();
    expect(() => logger.request(REQUEST)).not.toThrow();
  });
});
