import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSweep } from '@parl/sim';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRun, runNodeExample } from './support/run-example.js';

const dir = mkdtempSync(join(tmpdir(), 'parl-sweep-example-'));
const shipped = JSON.parse(readFileSync(new URL('../sweeps/mixed-lambda.json', import.meta.url), 'utf8')) as { grid: { lambda1: string[] }; config: object };

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('examples/sweep-mixed.mjs (λ1 schedules on mixed tasks, over seeds)', () => {
  it('ships a grid file of 4 schedules × 5 seeds on mixed tasks that resolves', () => {
    const sweep = resolveSweep(shipped);
    expect(sweep.runs).toHaveLength(20);
    expect(new Set(sweep.runs.map((r) => r.config.env.family))).toEqual(new Set(['mixed']));
  });

  it('runs the same grid shortened and prints a verdict per schedule that matches results.csv', { timeout: 120_000 }, () => {
    const grid = join(dir, 'grid.json');
    writeFileSync(grid, JSON.stringify({ ...shipped, steps: 3, seeds: [1, 2], config: { ...shipped.config, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } } }));
    const out = join(dir, 'sweep');
    const result = runNodeExample('sweep-mixed.mjs', [grid, out]);
    expect(result.status, describeRun('sweep-mixed.mjs', result)).toBe(0);
    expect(result.stdout).toContain(`8 runs (8 trained, 0 already complete) in ${out}`);
    const csv = readFileSync(join(out, 'results.csv'), 'utf8').trim().split('\n').slice(1);
    expect(csv).toHaveLength(8);
    for (const schedule of shipped.grid.lambda1) {
      const line = result.stdout.split('\n').find((l) => l.startsWith(`lambda1=${schedule}: `));
      expect(line).toMatch(/: (collapsed|spurious|parallel) \(\d\/2 seeds parallel\) — speed-up /);
      const speedups = csv.filter((l) => l.startsWith(`${schedule.includes(',') ? `"${schedule}"` : schedule},`)).map((l) => Number(l.split(',').at(-2)));
      expect(speedups).toHaveLength(2);
      expect(line).toContain(`speed-up ${((speedups[0]! + speedups[1]!) / 2).toFixed(3)}×`);
    }
    expect(result.stdout).toMatch(/verdict: /);
  });
});
