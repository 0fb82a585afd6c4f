import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeReward, criticalSteps } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { describeRun, REPO_ROOT, runNodeExample } from './support/run-example.js';

describe('examples/core-demo.mjs (the root `start` script)', () => {
  it('prints the reward and critical steps of each rollout at steps 0, 5000 and 10000, as @parl/core computes them', () => {
    const result = runNodeExample('core-demo.mjs');
    expect(result.status, describeRun('core-demo.mjs', result)).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(10);
    const wide = { success: true, quality: 0.9, stages: [{ main_steps: 1, sub_steps: [4, 5, 3, 4, 6, 4, 5, 3] }, { main_steps: 1 }] };
    for (const step of [0, 5000, 10000]) {
      const expected = computeReward({ ...wide, training_step: step }).total_reward.toFixed(4);
      const line = lines.find((l) => new RegExp(`^step\\s+${step}\\s+wide\\b`).test(l));
      expect(line, `no line for wide at step ${step}`).toBeDefined();
      expect(line).toContain(`reward ${expected}`);
      expect(line).toContain(`critical steps ${criticalSteps(wide.stages).critical_steps},`);
    }
    expect(lines.at(-1)).toMatch(/^diagnostics: serial stage share \d\.\d\d, idle sub-agent share \d\.\d\d, parallelism \d+\.\d\d$/);
  });

  it('prints the numbers docs/concepts.md quotes from it', () => {
    const result = runNodeExample('core-demo.mjs');
    expect(result.status, describeRun('core-demo.mjs', result)).toBe(0);
    const concepts = readFileSync(join(REPO_ROOT, 'docs', 'concepts.md'), 'utf8').replace(/\s+/g, ' ');
    const diag = /serial stage share (\d\.\d\d), idle sub-agent share (\d\.\d\d), parallelism (\d+\.\d\d)/.exec(result.stdout);
    expect(diag).not.toBeNull();
    expect(concepts).toContain(`a serial stage share of ${diag?.[1]}, an idle sub-agent share of ${diag?.[2]} and a parallelism of ${diag?.[3]}`);
    const serialAt = (step: number): string => {
      const line = result.stdout.split('\n').find((l) => new RegExp(`^step\\s+${step}\\s+serial\\b`).test(l)) ?? '';
      return Number(/reward (\d\.\d{4})/.exec(line)?.[1]).toString();
    };
    expect(concepts).toContain(`(${serialAt(0)} at step 0, ${serialAt(5000)} at step 5,000, ${serialAt(10000)} at step 10,000)`);
  });
});
