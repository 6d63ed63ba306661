import { expect, test } from 'vitest';
import { createApp, type Contract } from '../../mock/index.js';

test('createApp given a path, not a loaded contract, says what to call instead', () => {
  expect(() => createApp('contracts/membership.openapi.yaml' as unknown as Contract)).toThrow(
    /createApp takes a loaded contract: createApp\(await loadContract\("contracts\/membership\.openapi\.yaml"\)\)/,
  );
  expect(() => createApp({ openapi: '3.0.3', paths: {} } as unknown as Contract)).toThrow(
    /loadContract\(pathOrDocument\)/,
  );
});
