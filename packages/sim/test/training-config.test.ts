import { ParlInputError } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { getPreset, resolveTrainingConfig } from '../src/index.js';
import { DEFAULT_MLP_SPEC } from '../src/policies/mlp-policy.js';
import { PRESET_NAMES } from '../src/names.js';
import { countLogits, decayWeights, habitWeight } from '../src/internal/policies/count-head.js';
import { rewardConfigOf } from '../src/training/trainer.js';
import { countTables } from '../src/internal/policies/count-head.js';

describe('presets', () => {
  it('names every preset and rejects unknown ones, listing the valid names', () => {
    expect([...PRESET_NAMES]).toEqual(['serial-collapse', 'spurious', 'parl', 'parl-mixed', 'delegate-only', 'no-anneal']);
    for (const name of PRESET_NAMES) expect(getPreset(name).preset).toBe(name);
    expect(() => getPreset('fast')).toThrow(ParlInputError);
    expect(() => getPreset('fast')).toThrow(/preset must be one of "serial-collapse", "spurious", "parl", "parl-mixed", "delegate-only", "no-anneal", got "fast"/);
  });

  it('delegate-only is parl without the direct tool; no-anneal is parl with λ1, λ2 held at their starting values', () => {
    const parl = getPreset('parl');
    const { preset: _d, env: dEnv, ...delegateOnly } = getPreset('delegate-only');
    const { preset: _p, env: pEnv, ...parlRest } = parl;
    expect(delegateOnly).toEqual(parlRest);
    expect(dEnv).toEqual({ ...pEnv, directAction: false });
    const { preset: _n, reward, ...noAnneal } = getPreset('no-anneal');
    const { preset: _q, reward: parlReward, ...parlRest2 } = parl;
    expect(noAnneal).toEqual(parlRest2);
    expect(reward).toEqual({ ...parlReward, lambda1: { kind: 'constant', value: 0.3 }, lambda2: { kind: 'constant', value: 0.5 } });
    expect(parlReward.lambda1).toMatchObject({ from: 0.3 });
    expect(parlReward.lambda2).toMatchObject({ from: 0.5 });
  });

  it('differ only in their λ schedules, and parl in handing out every ready subtask', () => {
    const strip = (name: string) => {
      const { preset: _p, reward, policy, ...rest } = getPreset(name);
      const { lambda1: _l1, lambda2: _l2, ...r } = reward;
      const { shareGrid: _s, ...p } = policy;
      return { ...rest, r, p };
    };
    expect(getPreset('parl').policy.shareGrid).toEqual([1]);
    expect(getPreset('serial-collapse').policy.shareGrid).toEqual([0.25, 0.5, 1]);
    expect(strip('spurious')).toEqual(strip('parl'));
    expect(strip('serial-collapse')).toEqual(strip('parl'));
    expect(getPreset('serial-collapse').reward.lambda1).toEqual({ kind: 'constant', value: 0 });
  });

  it('parl-mixed is parl (with every share) on mixed tasks under a concurrency limit and a budget that scores what finished, trained under a tighter budget with a mode entropy bonus', () => {
    const { env, preset: _p, policy, reward, objective, ...rest } = getPreset('parl-mixed');
    const { env: parlEnv, preset: _q, policy: parlPolicy, reward: parlReward, objective: parlObjective, ...parlRest } = getPreset('parl');
    expect(rest).toEqual(parlRest);
    expect(objective).toEqual({ ...parlObjective, modeEntropy: 0.02 });
    expect(parlObjective.modeEntropy).toBeUndefined();
    expect(reward).toEqual({ ...parlReward, budget: 30, onBudget: 'fail' });
    expect(policy).toEqual({ ...parlPolicy, shareGrid: [0.25, 0.5, 1] });
    expect(env).toEqual({ ...parlEnv, family: 'mixed', concurrency: 16, budget: 72, onBudget: 'truncate' });
  });
});

describe('resolveTrainingConfig', () => {
  it('overrides steps, seed and nested settings over a preset', () => {
    const cfg = resolveTrainingConfig({ steps: 12, seed: 9, env: { budget: 90 }, reward: { lambda1: 'linear:0.5:0:10' } }, getPreset('parl'));
    expect(cfg.steps).toBe(12);
    expect(cfg.seed).toBe(9);
    expect(cfg.env.budget).toBe(90);
    expect(cfg.env.costMean).toBe(getPreset('parl').env.costMean);
    expect(cfg.reward.lambda1).toEqual({ kind: 'linear', from: 0.5, to: 0, steps: 10 });
    expect(cfg.reward.lambda2).toEqual(getPreset('parl').reward.lambda2);
    expect(cfg.preset).toBe('parl');
  });

  it('reads back a config.json it wrote: the run repeats exactly', () => {
    for (const name of PRESET_NAMES) {
      const cfg = resolveTrainingConfig({ seed: 11, steps: 40 }, getPreset(name));
      const reread = resolveTrainingConfig(JSON.parse(JSON.stringify(cfg)), getPreset('parl'));
      expect(reread).toEqual(cfg);
    }
  });

  it('rejects bad input with the field, the value and what was expected', () => {
    expect(() => resolveTrainingConfig({ stepz: 3 })).toThrow(/stepz must be a known setting/);
    expect(() => resolveTrainingConfig({ steps: 0 })).toThrow(/steps must be an integer ≥ 1, got 0/);
    expect(() => resolveTrainingConfig({ rolloutsPerTask: 1 })).toThrow(/rolloutsPerTask must be an integer ≥ 2/);
    expect(() => resolveTrainingConfig({ reward: { lambda1: 'linear:0.1:0:-5' } })).toThrow(/reward\.lambda1/);
    expect(() => resolveTrainingConfig({ objective: { alpha: 1 } })).toThrow(/objective\.alpha must be a number between -10 and 0, got 1/);
    expect(() => resolveTrainingConfig({ objective: { modeEntropy: -0.1 } })).toThrow(/objective\.modeEntropy must be a number between 0 and 10, got -0\.1/);
    expect(resolveTrainingConfig({ objective: { modeEntropy: 0.05 } }).objective).toEqual({ alpha: -1, beta: 1, tau: 0.01, modeEntropy: 0.05 });
    expect(resolveTrainingConfig({ objective: { tau: 0.02 } }, getPreset('parl-mixed')).objective.modeEntropy).toBe(getPreset('parl-mixed').objective.modeEntropy);
    expect(() => resolveTrainingConfig({ policy: { absoluteCounts: [1, 2.5] } })).toThrow(/policy\.absoluteCounts\[1\] must be an integer ≥ 1/);
    expect(() => resolveTrainingConfig({ policy: { initialHabit: { width: 3 } } })).toThrow(/policy\.initialHabit\.width must be a value of policy\.absoluteCounts/);
    expect(() => resolveTrainingConfig({ env: { concurrency: 0 } })).toThrow(/env\.concurrency/);
    expect(() => resolveTrainingConfig('steps=3')).toThrow(/config must be an object/);
  });
});

describe('the width head', () => {
  it('puts the untrained habit count at the configured probability and can peak at the ready count', () => {
    const tables = countTables(DEFAULT_MLP_SPEC);
    const w = habitWeight(tables, 1, 0.95);
    const R = DEFAULT_MLP_SPEC.relativeCounts.length;
    const weights = new Float32Array(R + DEFAULT_MLP_SPEC.absoluteCounts.length);
    weights[R] = w;
    const logits = new Float32Array(DEFAULT_MLP_SPEC.maxCount);
    countLogits(tables, weights, 0, 20, logits);
    const total = logits.reduce((acc, v) => acc + Math.exp(v), 0);
    expect(Math.exp(logits[0] as number) / total).toBeCloseTo(0.95, 6);
    weights.fill(0);
    weights[DEFAULT_MLP_SPEC.relativeCounts.indexOf(1)] = 5;
    for (const ready of [3, 17, 28]) {
      countLogits(tables, weights, 0, ready, logits);
      expect(logits.indexOf(Math.max(...logits)) + 1).toBe(ready);
    }
  });

  it('starts narrow: with the presets\' decay 1.25 a launch of k > 1 sub-agents is about k^−1.25 as likely, the habit count keeps its probability', () => {
    expect(getPreset('serial-collapse').policy.initialHabit.decay).toBe(1.25);
    const tables = countTables(DEFAULT_MLP_SPEC);
    const R = DEFAULT_MLP_SPEC.relativeCounts.length;
    const prior = decayWeights(tables, 1.25);
    const weights = new Float32Array(R + DEFAULT_MLP_SPEC.absoluteCounts.length);
    weights.set(prior, R);
    weights[R] = habitWeight(tables, 1, 0.95, prior);
    const logits = new Float32Array(DEFAULT_MLP_SPEC.maxCount);
    countLogits(tables, weights, 0, 20, logits);
    const total = logits.reduce((acc, v) => acc + Math.exp(v), 0);
    const p = Array.from(logits, (v) => Math.exp(v) / total);
    expect(p[0]).toBeCloseTo(0.95, 6);
    const mass = (lo: number, hi: number): number => p.slice(lo - 1, hi).reduce((a, b) => a + b, 0);
    // Without decay: 0.003 on 2–6 sub-agents, 0.047 on 7–100, 0.035 on 31–100.
    expect(mass(2, 6)).toBeGreaterThan(0.02);
    expect(mass(7, 100)).toBeLessThan(0.03);
    expect(mass(31, 100)).toBeLessThan(0.011);
    // 20 sub-agents about 10^−1.25 ≈ 0.056 as likely as 2.
    expect((p[19] as number) / (p[1] as number)).toBeGreaterThan(0.04);
    expect((p[19] as number) / (p[1] as number)).toBeLessThan(0.07);
    expect(Array.from(decayWeights(tables, 0))).toEqual(new Array(DEFAULT_MLP_SPEC.absoluteCounts.length).fill(0));
  });
});

describe('the reward a run trains with', () => {
  it("is core's config: the environment's budget, unless reward.budget scores the training rollouts under another", () => {
    const parl = rewardConfigOf(getPreset('parl'));
    expect([parl.budget, parl.onBudget]).toEqual([120, 'fail']);
    const mixed = rewardConfigOf(getPreset('parl-mixed'));
    expect([mixed.budget, mixed.onBudget]).toEqual([30, 'fail']);
    const own = rewardConfigOf(resolveTrainingConfig({ reward: { budget: 50 } }, getPreset('parl-mixed')));
    expect([own.budget, own.onBudget]).toEqual([50, 'fail']);
    expect(() => resolveTrainingConfig({ reward: { budget: -1 } })).toThrow(/reward\.budget/);
    expect(() => resolveTrainingConfig({ reward: { onBudget: 'later' } })).toThrow(/reward\.onBudget/);
  });
});
