/**
 * `@parl/cli` without its optional peer `@parl/sim` (the simulator and TensorFlow.js): an install
 * laid out as npm would lay out `npm install @parl/cli`, built from this checkout. Labelling,
 * traces and reports work; the simulator commands say in one line how to add what they need.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltBin } from './support/bin.js';
const CLI = fileURLToPath(new URL('..', import.meta.url));

/** Lay out node_modules with @parl/cli (copied, so it resolves its own dependencies here) and its dependencies only. */
function installWithoutSimulator(root: string): string {
  const modules = join(root, 'node_modules');
  const cliDir = join(modules, '@parl', 'cli');
  mkdirSync(cliDir, { recursive: true });
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(CLI, part), join(cliDir, part), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(CLI, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const linked = new Set<string>();
  const link = (name: string, from: string): void => {
    if (linked.has(name)) return;
    linked.add(name);
    const target = realpathSync(join(from, 'node_modules', name));
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(target, join(modules, name), 'dir');
    const deps = (JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
    for (const dep of Object.keys(deps)) link(dep, target.includes(`${join('node_modules', name)}`) ? target.slice(0, target.lastIndexOf(join('node_modules', name))) : target);
  };
  for (const dep of Object.keys(manifest.dependencies)) link(dep, CLI);
  return join(cliDir, 'bin', 'parl.js');
}

/** The environment of a user's shell: no NODE_PATH (pnpm's script runner sets one that reaches every workspace package). */
const { NODE_PATH: _nodePath, ...env } = process.env;

describe('@parl/cli installed without @parl/sim', () => {
  let root = '';
  let bin = '';
  beforeAll(() => {
    requireBuiltBin();
    root = mkdtempSync(join(tmpdir(), 'parl-cli-no-sim-'));
    bin = installWithoutSimulator(root);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('labels records and reads traces', () => {
    const r = spawnSync(process.execPath, [bin, 'reward'], { input: '{"r_perf":0.5}\n', encoding: 'utf8', env });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total_reward: 0.5 });
  });

  it('says how to add the simulator, in one line, for train and simulate, and in their help', () => {
    for (const args of [['train'], ['simulate'], ['train', '--steps', '5'], ['simulate', '--policy', 'serial']]) {
      const command = args[0] as string;
      const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toBe(`parl ${command}: parl ${command} needs @parl/sim, which is not installed: npm install @parl/sim (the simulator; it brings TensorFlow.js, about 65 MB)\n`);
    }
    const help = spawnSync(process.execPath, [bin, 'train', '--help'], { encoding: 'utf8', env });
    expect(help.status).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('(needs @parl/sim: npm install @parl/sim');
  });
});
