import { describe, expect, it } from 'vitest';
import { getPreset, resolveTrainingConfig, train } from '../src/index.js';

// Each preset on a shortened run (seconds): the same world, network and seed; fewer steps.

describe('preset outcomes on shortened runs', () => {
  it('serial-collapse (λ1 = λ2 = 0): the policy stays serial', { timeout: 180_000 }, async () => {
    const result = await train(resolveTrainingConfig({ steps: 60, tasksPerStep: 8, evaluation: { episodes: 64 } }, getPreset('serial-collapse')));
    const { final, baseline_serial } = result.summary;
    expect(final.mean_width).toBeLessThanOrEqual(1.5);
    expect(final.critical_steps).toBeGreaterThan(0.8 * baseline_serial.critical_steps);
    result.policy.dispose();
  });

  it('spurious (large constant λ1, λ2 = 0): many idle sub-agents, finish rate below 0.5', { timeout: 180_000 }, async () => {
    const result = await train(resolveTrainingConfig({ steps: 60, tasksPerStep: 8, evaluation: { episodes: 64 } }, getPreset('spurious')));
    const { final } = result.summary;
    expect(final.finish_rate).toBeLessThan(0.5);
    expect(final.mean_width).toBeGreaterThan(40);
    result.policy.dispose();
  });

  it('parl (annealed λ1, λ2): ≥ 3× fewer critical steps than serial at equal or better r_perf, finish ≥ 0.8', { timeout: 180_000 }, async () => {
    const config = resolveTrainingConfig(
      { steps: 150, evaluation: { episodes: 64 }, reward: { lambda1: 'linear:0.3:0:100', lambda2: 'linear:0.5:0:130' } },
      getPreset('parl'),
    );
    const result = await train(config);
    const { final, baseline_serial } = result.summary;
    expect(final.critical_steps * 3).toBeLessThanOrEqual(baseline_serial.critical_steps);
    expect(final.r_perf).toBeGreaterThanOrEqual(baseline_serial.r_perf);
    expect(final.finish_rate).toBeGreaterThanOrEqual(0.8);
    // λ annealed to 0: the last steps optimise r_perf alone.
    expect(result.metrics.at(-1)?.lambda1).toBe(0);
    expect(result.metrics.at(-1)?.lambda2).toBe(0);
    result.policy.dispose();
  });
});
