import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSweep, runSweep, sweepPointRows } from '@parl/sim';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'parl-sweep-openparl-'));
const shipped = JSON.parse(readFileSync(new URL('../sweeps/openparl.json', import.meta.url), 'utf8')) as { grid: { preset: string[] }; seeds: number[] };

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('examples/sweeps/openparl.json (parl, delegate-only and no-anneal over held-out seeds)', () => {
  it('resolves into the three presets × five seeds none of which were tuned on', () => {
    const sweep = resolveSweep(shipped);
    expect(sweep.runs).toHaveLength(15);
    expect(new Set(sweep.runs.map((r) => r.config.preset))).toEqual(new Set(['parl', 'delegate-only', 'no-anneal']));
    expect(sweep.runs.filter((r) => r.config.preset === 'delegate-only').every((r) => r.config.env.directAction === false)).toBe(true);
    expect(shipped.seeds.every((s) => s > 100)).toBe(true);
  });

  it('ships the parl-mixed grid over 25 seeds none of which parl-mixed was tuned on (1–5)', () => {
    const grid = JSON.parse(readFileSync(new URL('../sweeps/parl-mixed-heldout.json', import.meta.url), 'utf8')) as unknown;
    const sweep = resolveSweep(grid);
    expect(sweep.runs).toHaveLength(25);
    expect(sweep.runs.every((r) => r.config.preset === 'parl-mixed' && r.seed > 5)).toBe(true);
    expect(sweep.runs[0]?.config.env).toMatchObject({ family: 'mixed', concurrency: 16, budget: 72, onBudget: 'truncate' });
  });

  it('runs shortened, one row per run and one point per preset, with the assign rate in every run folder', { timeout: 120_000 }, async () => {
    const grid = join(dir, 'grid.json');
    writeFileSync(grid, JSON.stringify({ ...shipped, steps: 3, seeds: [101], config: { tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } } }));
    const outcome = await runSweep({ grid, out: join(dir, 'sweep'), threads: 1 });
    expect(outcome.failed).toEqual([]);
    expect(outcome.rows).toHaveLength(3);
    expect(sweepPointRows(outcome.rows).map((r) => r.params['preset'])).toEqual(['parl', 'delegate-only', 'no-anneal']);
    for (const row of outcome.rows) {
      const summary = JSON.parse(readFileSync(join(dir, 'sweep', 'runs', row.run_id, 'summary.json'), 'utf8')) as { final: { assign_rate: number; truncated_share: number } };
      expect(summary.final.assign_rate).toBeGreaterThanOrEqual(0);
      expect(summary.final.truncated_share).toBeGreaterThanOrEqual(0);
      const first = JSON.parse(readFileSync(join(dir, 'sweep', 'runs', row.run_id, 'metrics.jsonl'), 'utf8').split('\n')[0] as string) as Record<string, number>;
      expect(Object.keys(first)).toEqual(expect.arrayContaining(['assign_rate', 'truncated_share', 'repeat_share']));
    }
  });
});
