/**
 * `@parl/cli` without its optional peer `@parl/sim` (the simulator and TensorFlow.js): an install
 * laid out as npm would lay out `npm install @parl/cli`, built from this checkout. Labelling,
 * traces and reports work; the simulator commands say in one line how to add what they need.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltBin } from './support/bin.js';
import { installCli } from './support/install-layout.js';

/** The environment of a user's shell: no NODE_PATH (pnpm's script runner sets one that reaches every workspace package). */
const { NODE_PATH: _nodePath, ...env } = process.env;

describe('@parl/cli installed without @parl/sim', () => {
  let root = '';
  let bin = '';
  beforeAll(() => {
    requireBuiltBin();
    root = mkdtempSync(join(tmpdir(), 'parl-cli-no-sim-'));
    bin = installCli(root);
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
