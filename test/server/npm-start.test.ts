// `npm start &` then `kill $!`: npm passes the signal to its script's shell, which dies without passing it on.
// The mock notices its parent is gone and stops, so the port is free again.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { ROOT } from '../support/cli-process.js';

const spawned: (() => void)[] = [];
afterEach(() => spawned.splice(0).forEach((kill) => kill()));

/** Whether something accepts connections on the URL's port. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

test('killing npm start stops the mock it started, and frees its port', async () => {
  const npm = spawn('npm', ['start', '--', '--port', '0', '--log', 'json'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(() => npm.kill('SIGKILL'));
  let out = '';
  npm.stdout.on('data', (chunk) => (out += chunk));
  // The mock holds npm's stdout too: the stream ends once every process of the chain has exited.
  const ended = once(npm.stdout, 'end');
  const banner = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const look = () => {
      const line = out.split('\n').find((l) => l.startsWith('{') && l.includes('"event":"start"'));
      if (line) resolve(JSON.parse(line) as Record<string, unknown>);
    };
    npm.stdout.on('data', look);
    npm.once('exit', (code) => reject(new Error(`npm start exited with ${code} before the banner: ${out}`)));
  });
  const url = banner.url as string;
  // Should the mock outlive the test (the bug this is about), it is stopped all the same.
  spawned.push(() => {
    try {
      process.kill(banner.pid as number, 'SIGKILL');
    } catch {
      // gone already
    }
  });
  expect(await listening(url)).toBe(true);

  npm.kill('SIGTERM');
  await ended;
  expect(await listening(url)).toBe(false);
  expect(out).toContain('the npm process that started the mock is gone');
}, 30_000);
