import { describe, expect, test } from 'vitest';
import { compilePathParams } from '../../mock/http/path-params.js';

const extractPathParams = (template: string, path: string) => compilePathParams(template)(path);

describe('compilePathParams', () => {
  test('reads whole-segment parameters', () => {
    expect(extractPathParams('/members/{member_id}/passes/{pass_id}', '/members/m1/passes/p2')).toEqual({
      member_id: 'm1',
      pass_id: 'p2',
    });
  });

  test('decodes percent-encoded values', () => {
    expect(extractPathParams('/members/{member_id}', '/members/a%2Fb%20c')).toEqual({ member_id: 'a/b c' });
  });

  test('reads parameters mixed with text in a segment', () => {
    expect(extractPathParams('/files/{name}.{ext}', '/files/report.pdf')).toEqual({ name: 'report', ext: 'pdf' });
  });

  test('keeps a malformed escape as it was sent', () => {
    expect(extractPathParams('/members/{id}', '/members/%E0%A4%A')).toEqual({ id: '%E0%A4%A' });
  });

  test('returns nothing when the path does not fit', () => {
    expect(extractPathParams('/members/{id}', '/members/1/passes')).toEqual({});
  });
});
