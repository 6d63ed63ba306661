import { copyFile, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess } from '../support/cli-process.js';
import { AUTH } from '../support/harness.js';

const started: CliProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop('SIGKILL')));
});

/** Polls until `check` passes: the reload is asynchronous by nature (a file event, then a parse). */
async function eventually(check: () => Promise<void>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function editedCopy(): Promise<{ path: string; text: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mock-contract-'));
  const path = join(dir, 'membership.openapi.yaml');
  await copyFile(DEFAULT_CONTRACT, path);
  return { path, text: await readFile(path, 'utf8') };
}

describe('hot reload of the contract on a running server', () => {
  test('an edit is served without a restart, and state and journal are kept', async () => {
    const { path, text } = await editedCopy();
    const cli = await CliProcess.start(['--port', '0', '--contract', path], { contract: path });
    started.push(cli);
    const created = await (
      await fetch(`${cli.url}/members/m1/credentials`, {
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': 'application/json' },
        body: '{"kind":"pin"}',
      })
    ).json();
    const refused = await fetch(`${cli.url}/members/m1/credentials`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: '{"kind":"retina"}',
    });
    expect(refused.status).toBe(422);

    // A new kind of credential; saved the way many editors save: write a temp file, rename it over.
    await writeFile(`${path}.tmp`, text.replace('enum: [pin, card, mobile]', 'enum: [pin, card, mobile, retina]'));
    await rename(`${path}.tmp`, path);

    await eventually(async () => {
      const res = await fetch(`${cli.url}/members/m1/credentials`, {
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': 'application/json' },
        body: '{"kind":"retina"}',
      });
      expect(res.status).toBe(201);
    });
    const list = (await (await fetch(`${cli.url}/members/m1/credentials`, { headers: AUTH })).json()) as {
      data: { id: string }[];
    };
    expect(list.data.map((c) => c.id)).toContain((created as { id: string }).id);
    const calls = (await (await fetch(`${cli.url}/__mock/calls?operationId=createCredential`)).json()) as {
      calls: unknown[];
    };
    expect(calls.calls.length).toBeGreaterThanOrEqual(3);
  });

  test('an edit that the kept state no longer fits is served, and the log names the record', async () => {
    const { path, text } = await editedCopy();
    // Its only call comes before the edit: it is checked against the original contract.
    const cli = await CliProcess.start(['--port', '0', '--contract', path], { contract: DEFAULT_CONTRACT });
    started.push(cli);
    const output: string[] = [];
    cli.child.stdout!.on('data', (d) => output.push(String(d)));
    await fetch(`${cli.url}/members/m1/credentials`, { headers: AUTH });
    await writeFile(`${path}.tmp`, text.replace('enum: [pin, card, mobile]', 'enum: [badge]'));
    await rename(`${path}.tmp`, path);
    await eventually(async () =>
      expect(output.join('')).toMatch(
        /after the reload, the state: "\/members\/m1\/credentials"\[0\] \(id "crd_\w+"\) does not fit the contract: \/kind: must be equal to one of the allowed values: badge/,
      ),
    );
  });

  test('a broken edit keeps serving the last good contract and says why', async () => {
    const { path } = await editedCopy();
    // Its answers are checked against the original: the broken edit is never served.
    const cli = await CliProcess.start(['--port', '0', '--contract', path], { contract: DEFAULT_CONTRACT });
    started.push(cli);
    const output: string[] = [];
    cli.child.stdout!.on('data', (d) => output.push(String(d)));
    await writeFile(path, 'openapi: [3.0\n');
    await eventually(async () =>
      expect(output.join('')).toContain('the contract edit was not loaded, still serving the last good version'),
    );
    expect((await fetch(`${cli.url}/members/m1/passes`, { headers: AUTH })).status).toBe(200);
  });
});
