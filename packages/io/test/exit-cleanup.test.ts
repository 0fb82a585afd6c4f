import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built module, as a process that registers exit tasks would load it.
const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));
let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('io-exit-cleanup');
});
afterAll(async () => {
  await dir?.remove();
});

/** Run a node script that imports the built module as `io`; the files its exit tasks wrote. */
function runWith(script: string): { status: number | null; wrote: (name: string) => boolean } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import * as io from ${JSON.stringify(built)}; import { writeFileSync } from 'node:fs'; const at = (n) => ${JSON.stringify(dir.path)} + '/' + n;\n${script}`], { encoding: 'utf8' });
  return { status: r.status, wrote: (name) => existsSync(join(dir.path, name)) };
}

describe('onProcessExit: the one cleanup registry for what must not outlive the process', () => {
  it('runs a registered task when the process ends, by its own end, by process.exit or by a signal handled like Ctrl-C; a removed task does not run', () => {
    const ended = runWith(`io.onProcessExit(() => writeFileSync(at('ended'), '')); const forget = io.onProcessExit(() => writeFileSync(at('forgotten'), '')); forget();`);
    expect(ended.status).toBe(0);
    expect(ended.wrote('ended')).toBe(true);
    expect(ended.wrote('forgotten')).toBe(false);
    const exited = runWith(`io.onProcessExit(() => writeFileSync(at('exited'), '')); process.exit(3);`);
    expect(exited.status).toBe(3);
    expect(exited.wrote('exited')).toBe(true);
    const terminated = runWith(`io.removeTempPathsOnSignal(); io.onProcessExit(() => writeFileSync(at('terminated'), '')); setInterval(() => undefined, 1000); process.kill(process.pid, 'SIGTERM');`);
    expect(terminated.status).toBe(143);
    expect(terminated.wrote('terminated')).toBe(true);
  });
});
