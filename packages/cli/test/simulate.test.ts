import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeReward } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';
import { parseJsonl } from './support/records.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

describe('parl simulate', () => {
  it('writes spec §5 records of a scripted policy that parl reward accepts; the same seed gives the same records', async () => {
    const a = await parl(['simulate', '--policy', 'balanced', '--family', 'deep', '--episodes', '4', '--seed', '7']);
    expect(a.code).toBe(0);
    expect(a.stderr).toBe('');
    const records = parseJsonl(a.stdout);
    expect(records.map((r) => r['id'])).toEqual(['episode-0', 'episode-1', 'episode-2', 'episode-3']);
    for (const r of records) {
      expect(r['family']).toBe('deep');
      expect(() => computeReward(r)).not.toThrow();
    }
    const b = await parl(['simulate', '--policy', 'balanced', '--family', 'deep', '--episodes', '4', '--seed', '7']);
    expect(b.stdout).toBe(a.stdout);
    const c = await parl(['simulate', '--policy', 'balanced', '--family', 'deep', '--episodes', '4', '--seed', '8']);
    expect(c.stdout).not.toBe(a.stdout);
    const labelled = await parl(['reward', '--on-error', 'fail'], a.stdout);
    expect(labelled.code).toBe(0);
  });

  it('the serial policy launches no sub-agents', async () => {
    const r = await parl(['simulate', '--policy', 'serial', '--episodes', '3']);
    for (const rec of parseJsonl(r.stdout)) expect(rec['num_subagents']).toBe(0);
  });

  it('writes CSV to --out atomically and prints a JSON summary on stdout', async () => {
    const dir = tempDir();
    const out = join(dir, 'sim.csv');
    const r = await parl(['simulate', '--episodes', '2', '--out', out, '--format', 'csv', '--columns', 'id,r_perf,num_subagents', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ policy: 'balanced', episodes: 2, seed: 1, output: out, output_format: 'csv' });
    expect(readFileSync(out, 'utf8').split('\n')[0]).toBe('id,r_perf,num_subagents');
    expect(filesIn(dir)).toEqual(['sim.csv']);
  });

  it('gives one clear line for an unknown policy, a missing --env file, a bad env setting and --sample with a scripted policy', async () => {
    const dir = tempDir();
    const out = join(dir, 'x.jsonl');
    const unknown = await parl(['simulate', '--policy', 'greedy-bot', '--out', out]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'parl simulate: --policy must be a scripted policy (serial, max-parallel, balanced) or the folder of a trained one (a run folder or its policy/), got "greedy-bot"\n',
    );
    const missing = await parl(['simulate', '--env', join(dir, 'env.json')]);
    expect(missing.stderr).toBe(`parl simulate: cannot read --env ${join(dir, 'env.json')}: no such file or directory\n`);
    writeFileSync(join(dir, 'env.json'), JSON.stringify({ family: 'tall' }));
    const bad = await parl(['simulate', '--env', join(dir, 'env.json'), '--out', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(new RegExp(`^parl simulate: --env ${join(dir, 'env.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: env\\.family must be .*got "tall"\\n$`));
    const sample = await parl(['simulate', '--policy', 'serial', '--sample']);
    expect(sample.code).toBe(2);
    expect(sample.stderr).toMatch(/^parl simulate: --sample must be used with a trained policy/);
    expect(existsSync(out)).toBe(false);
  });

  it('rejects a bad --family or --episodes as bad flags (one line, exit 2)', async () => {
    for (const args of [['--family', 'tall'], ['--episodes', '0'], ['--seed', '1.5']]) {
      const r = await parl(['simulate', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      // one line (and a suggestion for a typo), not the whole usage
      expect(r.stderr).not.toContain('Usage:');
      expect(r.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
    }
  });
});
