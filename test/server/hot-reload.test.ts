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

/**
 * Resolves with the first whole line the process prints from now on that matches: the CLI logs each reload
 * (and each refused edit) once it has happened, so this is the event to wait for. Create it before the edit.
 * A reload is news, on stdout; a refused edit or state that no longer fits, on stderr.
 */
function printed(cli: CliProcess, pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout'): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk;
      const line = out
        .split('\n')
        .slice(0, -1)
        .find((l) => pattern.test(l));
      if (line !== undefined) settle(() => resolve(line));
    };
    const onExit = (code: number | null) =>
      settle(() => reject(new Error(`the CLI exited with ${code} before printing ${pattern}; it printed: ${out}`)));
    const settle = (finish: () => void) => {
      cli.child[stream]!.off('data', onData);
      cli.child.off('exit', onExit);
      finish();
    };
    cli.child[stream]!.on('data', onData);
    cli.child.once('exit', onExit);
  });
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
    const reloaded = printed(cli, /contract reloaded, serving 7 operations/);
    await writeFile(`${path}.tmp`, text.replace('enum: [pin, card, mobile]', 'enum: [pin, card, mobile, retina]'));
    await rename(`${path}.tmp`, path);
    await reloaded;

    const accepted = await fetch(`${cli.url}/members/m1/credentials`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: '{"kind":"retina"}',
    });
    expect(accepted.status).toBe(201);
    const list = (await (await fetch(`${cli.url}/members/m1/credentials`, { headers: AUTH })).json()) as {
      data: { id: string }[];
    };
    expect(list.data.map((c) => c.id)).toContain((created as { id: string }).id);
    const calls = (await (await fetch(`${cli.url}/__mock/calls?operationId=createCredential`)).json()) as {
      calls: unknown[];
    };
    expect(calls.calls).toHaveLength(3);
  });

  test('an edit that the kept state no longer fits is served, and the log names the record', async () => {
    const { path, text } = await editedCopy();
    // Its only call comes before the edit: it is checked against the original contract.
    const cli = await CliProcess.start(['--port', '0', '--contract', path], { contract: DEFAULT_CONTRACT });
    started.push(cli);
    const created = {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: '{"kind":"pin"}',
    };
    expect((await fetch(`${cli.url}/members/m1/credentials`, created)).status).toBe(201);
    const warned = printed(cli, /after the reload/, 'stderr');
    await writeFile(`${path}.tmp`, text.replace('enum: [pin, card, mobile]', 'enum: [badge]'));
    await rename(`${path}.tmp`, path);
    expect(await warned).toMatch(
      new RegExp(
        // The created record comes after the member's three placeholders (made again from the new contract).
        String.raw`after the reload, the state: "\/members\/m1\/credentials"\[3\] \(id "crd_\w+"\) ` +
          String.raw`does not fit the contract: \/kind: must be equal to one of the allowed values: badge`,
      ),
    );
  });

  test('a broken edit keeps serving the last good contract and says why', async () => {
    const { path } = await editedCopy();
    // Its answers are checked against the original: the broken edit is never served.
    const cli = await CliProcess.start(['--port', '0', '--contract', path], { contract: DEFAULT_CONTRACT });
    started.push(cli);
    const refused = printed(cli, /the contract edit was not loaded/, 'stderr');
    await writeFile(path, 'openapi: [3.0\n');
    expect(await refused).toContain('the contract edit was not loaded, still serving the last good version');
    expect((await fetch(`${cli.url}/members/m1/passes`, { headers: AUTH })).status).toBe(200);
  });

  test('an edit of a file the contract refers to is served too, and so is a file it comes to refer to', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mock-refs-'));
    const root = join(dir, 'api.yaml');
    const schema = (name: string, value: string) =>
      writeFile(join(dir, name), `type: object\nproperties:\n  a: { type: string, enum: [${value}] }\nrequired: [a]\n`);
    const api = (file: string) =>
      writeFile(
        root,
        `openapi: 3.0.3\ninfo: { title: Refs, version: '1' }\npaths:\n  /thing:\n    get:\n      operationId: getThing\n      responses:\n` +
          `        '200': { description: ok, content: { application/json: { schema: { $ref: './${file}' } } } }\n`,
      );
    await schema('one.yaml', 'one');
    await api('one.yaml');
    // The answers of every version are checked against one that takes them all.
    const anyThing = join(dir, 'any-thing.yaml');
    await writeFile(
      anyThing,
      `openapi: 3.0.3\ninfo: { title: Refs, version: '1' }\npaths:\n  /thing:\n    get:\n      operationId: getThing\n      responses:\n` +
        `        '200': { description: ok, content: { application/json: { schema: { type: object } } } }\n`,
    );
    const cli = await CliProcess.start(['--port', '0', '--contract', root], { contract: anyThing });
    started.push(cli);
    const thing = async () => (await (await fetch(`${cli.url}/thing`)).json()) as { a: string };
    expect(await thing()).toEqual({ a: 'one' });

    let reloaded = printed(cli, /contract reloaded/);
    await schema('one.yaml', 'two');
    await reloaded;
    expect(await thing()).toEqual({ a: 'two' });

    // The root now refers to another file: that one is watched from then on.
    await schema('other.yaml', 'three');
    reloaded = printed(cli, /contract reloaded/);
    await api('other.yaml');
    await reloaded;
    expect(await thing()).toEqual({ a: 'three' });
    reloaded = printed(cli, /contract reloaded/);
    await schema('other.yaml', 'four');
    await reloaded;
    expect(await thing()).toEqual({ a: 'four' });
  });
});
