import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The bin package.json names (committed); it runs the built library, dist/index.js. */
export const BIN = fileURLToPath(new URL('../../bin/parl.js', import.meta.url));

/** The built library the bin runs; `pnpm test` builds first (turbo `test` depends on `build`). */
const BUILT = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

export function requireBuiltBin(): void {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run \`pnpm --filter @parl/cli build\` first`);
}

/** Spawn `node bin/parl.js ARGS` with `input` on stdin (in `env`, default this process's environment). */
export function runBin(args: readonly string[], options: { input?: string; cwd?: string; nodeArgs?: readonly string[]; env?: NodeJS.ProcessEnv } = {}): { code: number | null; stdout: string; stderr: string } {
  requireBuiltBin();
  const r = spawnSync(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    input: options.input ?? '',
    encoding: 'utf8',
    cwd: options.cwd,
    env: options.env ?? process.env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
