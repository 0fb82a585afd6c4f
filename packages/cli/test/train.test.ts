import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunFolder } from '../src/internal/report/run-folder.js';
import { parl } from './support/memory-io.js';
import { parseJsonl } from './support/records.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

/** A small run: 3 steps of few tasks, a short evaluation. */
function smallConfig(dir: string): string {
  const path = join(dir, 'small.json');
  writeFileSync(path, JSON.stringify({ tasksPerStep: 4, rolloutsPerTask: 2, evaluation: { episodes: 8 }, reward: { lambda1: 'linear:0.3:0:2', lambda2: 'linear:0.5:0:2' } }));
  return path;
}

describe('parl train', () => {
  it('writes the spec §6 run folder with its report, logs progress on stderr only, prints where the report is', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const run = join(dir, 'run');
    const r = await parl(['train', '--preset', 'parl', '--steps', '3', '--seed', '5', '--config', smallConfig(dir), '--out', run]);
    expect(r.stderr).toMatch(/^parl train: step 1\/3 λ1=\S+ λ2=\S+ reward=\S+ width=\S+ elapsed=\S+ eta=\S+\n/);
    expect(r.stderr).toMatch(/parl train: step 3\/3 /);
    expect(r.stderr).toMatch(
      /\nparl train: (collapsed|spurious|parallel): .*; final r_perf \S+ in \S+ critical steps \(serial baseline: \S+ in \S+\); (delegation was (learned|unlearned|never learned)|the assign rate went) [^\n]*, because [^\n]+\n$/,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`run folder: ${run}\nreport: ${join(run, 'report.html')}\n`);
    expect(filesIn(run)).toEqual(['config.json', 'metrics.jsonl', 'policy', 'report.html', 'summary.json']);
    const folder = await readRunFolder(run);
    expect(folder.metrics.map((m) => m.step)).toHaveLength(3);
    expect(folder.summary).toMatchObject({ preset: 'parl', seed: 5, steps: 3 });
    expect(folder.config).toMatchObject({ seed: 5, steps: 3, tasksPerStep: 4, rolloutsPerTask: 2 });
    const html = readFileSync(join(run, 'report.html'), 'utf8');
    expect(html).toContain('PARL training report — parl, seed 5');
    expect(filesIn(dir)).toEqual(['run', 'small.json']);

    // the same seed gives the same metrics; the run folder can be simulated from
    const again = join(dir, 'again');
    expect((await parl(['train', '--steps', '3', '--seed', '5', '--config', smallConfig(dir), '--out', again, '--quiet'])).stderr).not.toContain('step 1/3');
    expect(readFileSync(join(again, 'metrics.jsonl'), 'utf8')).toBe(readFileSync(join(run, 'metrics.jsonl'), 'utf8'));
    expect(readFileSync(join(again, 'summary.json'), 'utf8')).toBe(readFileSync(join(run, 'summary.json'), 'utf8'));
    const sim = await parl(['simulate', '--policy', run, '--episodes', '3']);
    expect(sim.code).toBe(0);
    expect(parseJsonl(sim.stdout)).toHaveLength(3);

    // and the report can be rebuilt from the files alone, identically
    const rebuilt = join(dir, 'rebuilt.html');
    expect((await parl(['report', run, '--out', rebuilt])).code).toBe(0);
    expect(readFileSync(rebuilt, 'utf8')).toBe(html);
  });

  it('prints a JSON result with --json', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const r = await parl(['train', '--steps', '2', '--config', smallConfig(dir), '--out', join(dir, 'run'), '--json', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { run_dir: string; report: string; summary: { steps: number } };
    expect(out.run_dir).toBe(join(dir, 'run'));
    expect(out.report).toBe(join(dir, 'run', 'report.html'));
    expect(out.summary.steps).toBe(2);
  });

  it('gives one clear line for an unknown preset, a missing or bad config file, and writes no run folder', async () => {
    const dir = tempDir();
    const run = join(dir, 'run');
    const preset = await parl(['train', '--preset', 'turbo', '--out', run]);
    expect(preset.code).toBe(2);
    expect(preset.stderr).toBe('parl train: --preset must be one of "serial-collapse", "spurious", "parl", "parl-mixed", "delegate-only", "no-anneal", got "turbo"\n');
    const missing = await parl(['train', '--config', join(dir, 'nope.json'), '--out', run]);
    expect(missing.stderr).toBe(`parl train: cannot read --config ${join(dir, 'nope.json')}: no such file or directory\n`);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ rolloutsPerTask: 1 }));
    const bad = await parl(['train', '--config', join(dir, 'bad.json'), '--out', run]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`parl train: --config ${join(dir, 'bad.json')}: rolloutsPerTask must be an integer ≥ 2 (the advantage compares rollouts of a task), got 1\n`);
    writeFileSync(join(dir, 'typo.json'), JSON.stringify({ stepz: 3 }));
    const typo = await parl(['train', '--config', join(dir, 'typo.json'), '--out', run]);
    expect(typo.stderr).toMatch(/^parl train: --config .*typo\.json: stepz must be a known setting/);
    expect(existsSync(run)).toBe(false);
  });

  it('rejects a bad --steps or --seed as bad flags (one line, exit 2)', async () => {
    const r = await parl(['train', '--steps', 'many']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("option '--steps <n>' argument 'many' is invalid. Expected a decimal integer ≥ 1.");
    // one line (and a suggestion for a typo), not the whole usage
      expect(r.stderr).not.toContain('Usage:');
      expect(r.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('notes a λ schedule still annealing when training stops', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const config = join(dir, 'late.json');
    writeFileSync(config, JSON.stringify({ tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 4 }, reward: { lambda1: 'linear:0.3:0:200', lambda2: 'constant:0.1' } }));
    const r = await parl(['train', '--steps', '40', '--config', config, '--out', join(dir, 'run'), '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^parl train: note: training stops at step 40 but λ1 anneals until step 200: it is still 0\.24 at the end \(use --steps 200 or more, or a shorter schedule in --config\)\n/,
    );
    expect(r.stderr).not.toMatch(/λ2 anneals/);
  });
});
