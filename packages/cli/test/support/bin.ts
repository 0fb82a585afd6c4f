import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built bin; `pnpm test` builds first (turbo `test` depends on `build`). */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export function requireBuiltBin(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`pnpm --filter @parl/cli build\` first`);
}

/** Spawn `node dist/bin.js ARGS` with `input` on stdin. */
export function runBin(args: readonly string[], options: { input?: string; cwd?: string; nodeArgs?: readonly string[] } = {}): { code: number | null; stdout: string; stderr: string } {
  requireBuiltBin();
  const r = spawnSync(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    input: options.input ?? '',
    encoding: 'utf8',
    cwd: options.cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
