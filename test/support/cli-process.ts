// Runs the built CLI as a real process, for tests of flags, banner, signals and the socket.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { connectMock, type CallRecord } from '../../mock/index.js';
import { track } from './harness.js';

export const CLI = fileURLToPath(new URL('../../dist/mock/cli.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A CLI process that printed its banner and listens. */
export class CliProcess {
  #journal: CallRecord[] = [];

  private constructor(
    readonly child: ChildProcess,
    /** Resolves with the exit code once the process closed: listened for from its spawn, so never missed. */
    private readonly closed: Promise<unknown[]>,
    readonly banner: string,
    readonly url: string,
    contract: string,
    private readonly readStderr: () => string,
    private readonly readStdout: () => string,
  ) {
    track(contract, () => this.#journal);
  }

  /** Everything the process wrote to stderr so far (all of it once {@link stop} has resolved). */
  get stderr(): string {
    return this.readStderr();
  }

  /** Everything the process wrote to stdout so far, the banner included. */
  get stdout(): string {
    return this.readStdout();
  }

  /**
   * Starts `node [...nodeArgs] dist/mock/cli.js ...args` and waits for the banner. `contract` is what its answers
   * must conform to.
   */
  static async start(
    args: string[],
    options: { env?: NodeJS.ProcessEnv; contract: string; nodeArgs?: string[] },
  ): Promise<CliProcess> {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = once(child, 'close');
    closed.catch(() => undefined);
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    // The banner is the line that says where it listens (a line may come before it: an import, say).
    let stuck: NodeJS.Timeout | undefined;
    const banner = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        const line = out.split('\n').find((l) => / at http:\/\/\S+ /.test(l));
        if (line !== undefined) resolve(line);
      });
      child.once('exit', (code) => reject(new Error(`the CLI exited with ${code} before listening: ${err}`)));
      // A start that hangs fails here, saying what the process wrote, instead of holding the test to its timeout.
      stuck = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the CLI printed no banner within 60 s; stdout: ${out}; stderr: ${err}`));
      }, 60_000);
    }).finally(() => clearTimeout(stuck));
    const url = /at (http:\/\/\S+) /.exec(banner)?.[1];
    if (!url) throw new Error(`no URL in the banner: ${banner}`);
    return new CliProcess(
      child,
      closed,
      banner,
      url,
      options.contract,
      () => err,
      () => out,
    );
  }

  /** Keeps a copy of the process's journal for the conformance check, then stops it with a signal. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; output: string }> {
    let output = '';
    this.child.stdout!.on('data', (d) => (output += d));
    const running = this.child.exitCode === null && this.child.signalCode === null;
    // Every page of it (a mock behind an admin token refuses, and is not checked).
    if (running)
      this.#journal = await connectMock(this.url)
        .calls()
        .catch(() => this.#journal);
    // 'close' comes after 'exit', once the process's output has all been read. It is listened for from the
    // spawn: a process killed by its test (kill -9 mid-burst) may close while its journal is asked for above.
    this.child.kill(signal);
    const [code] = await this.closed;
    return { code: code as number | null, output };
  }
}

/**
 * Runs the CLI to completion (for --help, bad flags, bad contracts); `user` runs it as another user (the tests must
 * run as root for that).
 */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  user: { uid?: number; gid?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  return { code: code as number | null, stdout, stderr };
}
