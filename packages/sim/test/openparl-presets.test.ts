import { describe, expect, it } from 'vitest';
import { getPreset, resolveTrainingConfig, train } from '../src/index.js';

// The OpenPARL presets on shortened runs (seconds, seeded): what docs/simulator.md reports them
// doing over 300 steps, on 80 steps of 8 tasks with λ annealed over the same share of the run.
const SHORT = { steps: 80, tasksPerStep: 8, evaluation: { episodes: 64 } };
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('OpenPARL presets on shortened runs', () => {
  it('parl: the assign rate dips below 0.3 as the first launches fail, then rises above 0.9; nothing truncated at the end', { timeout: 180_000 }, async () => {
    const result = await train(resolveTrainingConfig({ ...SHORT, reward: { lambda1: 'linear:0.3:0:53', lambda2: 'linear:0.5:0:69' } }, getPreset('parl')));
    const assign = result.metrics.map((m) => m.assign_rate as number);
    const averages = assign.slice(0, -4).map((_, i) => mean(assign.slice(i, i + 5)));
    const trough = averages.indexOf(Math.min(...averages));
    expect(assign[0]).toBeGreaterThan(0.3);
    expect(averages[trough]).toBeLessThan(0.1);
    // From the trough to above 0.9, and it stays there.
    expect(averages.slice(trough).some((a) => a > 0.9)).toBe(true);
    expect(mean(assign.slice(-8))).toBeGreaterThan(0.9);
    expect(mean(result.metrics.slice(-8).map((m) => m.truncated_share as number))).toBeLessThan(0.05);
    expect(result.summary.final.assign_rate).toBe(1);
    result.policy.dispose();
  });

  it('delegate-only: replies end the first episodes before any launch, then delegation is learned, not unlearned', { timeout: 180_000 }, async () => {
    const result = await train(resolveTrainingConfig({ ...SHORT, reward: { lambda1: 'linear:0.3:0:53', lambda2: 'linear:0.5:0:69' } }, getPreset('delegate-only')));
    const assign = result.metrics.map((m) => m.assign_rate as number);
    // The untrained policy replies on 97 % of its turns: most episodes answer at once.
    expect(assign[0]).toBeLessThan(0.1);
    expect(result.metrics[0]?.repeat_share).toBeGreaterThan(0);
    // One wide launch of reliable sub-agents scores far more than an answer from memory.
    expect(mean(assign.slice(-8))).toBeGreaterThan(0.9);
    expect(Math.max(...assign) - mean(assign.slice(-8))).toBeLessThan(0.4);
    expect(result.summary.final.r_perf).toBeGreaterThan(result.summary.baseline_serial.r_perf);
    result.policy.dispose();
  });

  it('no-anneal: λ1 and λ2 still pay at the last step, and the policy delegates', { timeout: 180_000 }, async () => {
    const result = await train(resolveTrainingConfig(SHORT, getPreset('no-anneal')));
    const last = result.metrics.at(-1);
    expect(last?.lambda1).toBe(0.3);
    expect(last?.lambda2).toBe(0.5);
    expect(mean(result.metrics.slice(-8).map((m) => m.assign_rate as number))).toBeGreaterThan(0.9);
    expect(result.summary.final.finish_rate).toBeGreaterThan(0.9);
    result.policy.dispose();
  });
});
