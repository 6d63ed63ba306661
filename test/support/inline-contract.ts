// Small contracts written inline in a test, saved to a temporary file the mock can load.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes a contract's YAML (or JSON) text to a file of its own and returns its path.
 * @example const file = await inlineContract(`openapi: 3.0.3\ninfo: …`)
 */
export async function inlineContract(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'inline-contract-')), 'contract.yaml');
  await writeFile(file, text);
  return file;
}
