import { describe, expect, it } from 'vitest';
import { ParlInputError } from '@parl/core';
import { getPreset, resolveSweep, resolveTrainingConfig } from '../src/index.js';
import { canonicalJson, runIdOf } from '../src/internal/runs/run-id.js';
import { validateSweepSpec } from '../src/sweeps/sweep-spec.js';

describe('run ids', () => {
  it('hash the resolved config whatever its key order, and change with any setting', () => {
    const a = getPreset('parl');
    const reordered = JSON.parse(canonicalJson(a)) as typeof a;
    expect(Object.keys(reordered)).not.toEqual(Object.keys(a));
    expect(runIdOf(reordered)).toBe(runIdOf(a));
    expect(runIdOf(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(runIdOf(resolveTrainingConfig({ seed: 2 }, a))).not.toBe(runIdOf(a));
    expect(runIdOf(resolveTrainingConfig({ env: { budget: 121 } }, a))).not.toBe(runIdOf(a));
  });
});

describe('resolveSweep', () => {
  it('crosses the grid with the seeds, point by point, with spec §4 short forms for λ', () => {
    const s = resolveSweep({ preset: 'parl', steps: 30, seeds: [1, 2], grid: { lambda1: ['linear:0.3:0:20', 'constant:0'], 'env.family': ['wide', 'mixed'] } });
    expect(s.parameters).toEqual(['lambda1', 'env.family']);
    expect(s.points).toHaveLength(4);
    expect(s.runs.map((r) => [r.point, r.seed])).toEqual([[0, 1], [0, 2], [1, 1], [1, 2], [2, 1], [2, 2], [3, 1], [3, 2]]);
    const r = s.runs[6]!;
    expect(r.params).toEqual({ lambda1: 'constant:0', 'env.family': 'mixed' });
    expect(r.config.reward.lambda1).toEqual({ kind: 'constant', value: 0 });
    expect(r.config.env.family).toBe('mixed');
    expect(r.config.steps).toBe(30);
    expect(r.config.seed).toBe(1);
    expect(r.runId).toBe(runIdOf(r.config));
    expect(new Set(s.runs.map((x) => x.runId)).size).toBe(8);
  });

  it('applies the fixed config, and a preset key per point', () => {
    const s = resolveSweep({ config: { tasksPerStep: 4 }, grid: { preset: ['spurious', 'parl'] } });
    expect(s.runs.map((r) => [r.config.preset, r.config.tasksPerStep, r.config.reward.lambda1.kind])).toEqual([
      ['spurious', 4, 'constant'],
      ['parl', 4, 'linear'],
    ]);
  });

  it("sweeps the optional settings a preset may set: the training budget and the mode entropy bonus (parl-mixed's)", () => {
    const s = resolveSweep({ preset: 'parl-mixed', grid: { 'reward.budget': [28, 30], 'objective.modeEntropy': [0, 0.02], 'reward.onBudget': ['fail'] } });
    expect(s.runs.map((r) => [r.config.reward.budget, r.config.objective.modeEntropy, r.config.reward.onBudget])).toEqual([
      [28, 0, 'fail'],
      [28, 0.02, 'fail'],
      [30, 0, 'fail'],
      [30, 0.02, 'fail'],
    ]);
    expect(() => resolveSweep({ grid: { 'reward.budgt': [1] } })).toThrow(/did you mean reward\.budget\?/);
  });

  it('draws the same random samples from the same file, within their ranges', () => {
    const spec = { seeds: [3], samples: 5, ranges: { 'env.budget': { min: 80, max: 160, integer: true }, 'optimizer.learningRate': { min: 0.001, max: 0.01, log: true }, lambda2: ['constant:0', 'linear:0.5:0:100'] } };
    const a = resolveSweep(spec);
    expect(resolveSweep(spec).points).toEqual(a.points);
    expect(a.points.length).toBeGreaterThan(1);
    for (const p of a.points) {
      expect(Number.isInteger(p['env.budget'])).toBe(true);
      expect(p['env.budget'] as number).toBeGreaterThanOrEqual(80);
      expect(p['env.budget'] as number).toBeLessThanOrEqual(160);
      expect(p['optimizer.learningRate'] as number).toBeGreaterThanOrEqual(0.001);
      expect(p['optimizer.learningRate'] as number).toBeLessThanOrEqual(0.01);
    }
    expect(resolveSweep({ ...spec, samplesSeed: 2 }).points).not.toEqual(a.points);
  });

  it('names unknown paths, bad values and bad keys', () => {
    expect(() => resolveSweep({ grid: { 'env.famly': ['wide'] } })).toThrow(/grid\["env\.famly"\].*env has family/);
    expect(() => resolveSweep({ grid: { seed: [1] } })).toThrow(/seeds/);
    expect(() => resolveSweep({ grid: { 'env.budget': [80, -1] } })).toThrow(/grid\["env\.budget"\]\[1\]/);
    expect(() => resolveSweep({ grid: { lambda1: ['linear:0.3:0'] } })).toThrow(/grid\["lambda1"\]\[0\]/);
    expect(() => resolveSweep({ grid: { preset: ['nope'] } })).toThrow(/grid\["preset"\]\[0\]/);
    expect(() => resolveSweep({ grid: { 'env.family': [] } })).toThrow(ParlInputError);
    expect(() => resolveSweep({ gird: {} })).toThrow(/gird/);
    expect(() => resolveSweep({ seeds: [1, 1] })).toThrow(/seeds\[1\]/);
    expect(() => resolveSweep({ samples: 3 })).toThrow(/ranges/);
    expect(() => validateSweepSpec({ samples: 2, ranges: { 'env.budget': { min: 5, max: 1 } } })).toThrow(/ranges\["env\.budget"\]\.min/);
    expect(() => resolveSweep({ config: { env: { budget: 'x' } } })).toThrow(/config\.env\.budget/);
  });
});
