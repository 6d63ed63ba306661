import type { IHttpOperation } from '@stoplight/types';
import { expect, test } from 'vitest';
import type { Operation } from '../../mock/contract/contract.js';
import { reportBrokenExamples } from '../../mock/respond/report-examples.js';

/** An operation whose 200 documents an object and gives `values` as its examples. */
function operation(id: string, values: unknown[]): Operation {
  const examples = values.map((value, i) => ({ key: `e${i}`, value }));
  const spec = {
    id,
    method: 'get',
    path: `/${id}`,
    request: {},
    responses: [
      {
        id: 'r',
        code: '200',
        contents: [{ id: 'c', mediaType: 'application/json', schema: { type: 'object' }, examples }],
      },
    ],
  } as unknown as IHttpOperation;
  return { id, method: 'get', path: `/${id}`, spec };
}

test('reports one line per broken example, then how many more past the limit', async () => {
  const lines: string[] = [];
  await reportBrokenExamples([operation('a', [1, {}, 2]), operation('b', [3, 4])], (l) => lines.push(l), { lines: 2 });
  expect(lines).toEqual([
    'the example "e0" of a 200 application/json breaks its schema ((root): must be object).',
    'the example "e2" of a 200 application/json breaks its schema ((root): must be object).',
    '2 more examples break their schema.',
  ]);
});

test('says "1 more example breaks its schema" of one past the limit', async () => {
  const lines: string[] = [];
  await reportBrokenExamples([operation('a', [1, 2])], (l) => lines.push(l), { lines: 1 });
  expect(lines.at(-1)).toBe('1 more example breaks its schema.');
});

test('hands each broken example over as fields too, for a JSON log', async () => {
  const fields: unknown[] = [];
  await reportBrokenExamples([operation('a', [1])], (_, f) => fields.push(f));
  expect(fields).toEqual([
    {
      operationId: 'a',
      code: '200',
      mediaType: 'application/json',
      name: 'e0',
      violations: [{ pointer: '', code: 'type', message: 'must be object' }],
    },
  ]);
});

test('says nothing when every example fits', async () => {
  const lines: string[] = [];
  await reportBrokenExamples([operation('a', [{}, { x: 1 }])], (l) => lines.push(l));
  expect(lines).toEqual([]);
});

test('stops once its time budget is spent, and says so as news, not as a warning', async () => {
  const lines: string[] = [];
  const warnings: string[] = [];
  // Every operation has a broken example: only the first is reached before the budget stops the check.
  const many = Array.from({ length: 3 }, (_, i) => operation(`op${i}`, [1]));
  await reportBrokenExamples(
    many,
    (l) => warnings.push(l),
    { budget: 0, slice: 0 },
    (l) => lines.push(l),
  );
  expect(warnings).toHaveLength(1);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^stopped checking the contract's examples after \d+ ms\.$/);
});
