import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The examples folder. */
export const EXAMPLES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The repository root. */
export const REPO_ROOT = resolve(EXAMPLES_DIR, '..');

/** The `parl` command of the workspace (it runs the built @parl/cli). */
export const PARL_BIN = join(REPO_ROOT, 'packages', 'cli', 'bin', 'parl.js');

/** Run a command in the examples folder (or `cwd`); never throws on a non-zero exit. */
export function runIn(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): SpawnSyncReturns<string> {
  return spawnSync(command, [...args], {
    cwd: options.cwd ?? EXAMPLES_DIR,
    env: options.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
}

/** Run `node` (this one) on a script in the examples folder. */
export function runNodeExample(script: string, args: readonly string[] = [], env?: NodeJS.ProcessEnv): SpawnSyncReturns<string> {
  return runIn(process.execPath, [script, ...args], env === undefined ? {} : { env });
}

/** Describe a finished command for an assertion message. */
export function describeRun(what: string, result: SpawnSyncReturns<string>): string {
  return `${what} exited ${result.status}${result.error ? ` (${result.error.message})` : ''}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}
