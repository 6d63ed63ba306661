// What the package tests share: commands run as a team's machine would run them, and packing a package.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** This project's folder. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The environment without what `npm test` sets for its own scripts (npm_config_*, npm_package_*…), `extra` on top. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // npm's own variables, INIT_CWD among them (the CLI reads its config file from that folder), are this run's.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_|^INIT_CWD$/i.test(name)));
  return { ...env, ...extra };
}

/** Runs a command to its end; a failure says the command, the folder and what it printed. */
export async function sh(cmd: string, args: string[], cwd: string, env = cleanEnv()) {
  try {
    return await run(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

/**
 * Packs a package (`spec`: a folder, or a name from the registry) into `destination`; the tarball's path. No
 * script runs: this project's dist/ is what `npm test` just built, and packing must not build it again under
 * the other tests' feet.
 */
export async function pack(spec: string, destination: string): Promise<string> {
  const args = ['pack', spec, '--ignore-scripts', '--json', '--pack-destination', destination];
  const { stdout } = await sh('npm', args, destination);
  return join(destination, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
}
