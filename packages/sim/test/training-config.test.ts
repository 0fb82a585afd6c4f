import { ParlInputError } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES, getPreset, parseWidthRule, resolveTrainingConfig, widthOf } from '../src/index.js';

describe('presets', () => {
  it('names every preset and rejects unknown ones, listing the valid names', () => {
    expect([...PRESET_NAMES]).toEqual(['serial-collapse', 'spurious', 'parl']);
    for (const name of PRESET_NAMES) expect(getPreset(name).preset).toBe(name);
    expect(() => getPreset('fast')).toThrow(ParlInputError);
    expect(() => getPreset('fast')).toThrow(/preset must be one of "serial-collapse", "spurious", "parl", got "fast"/);
  });

  it('differ only in their λ schedules', () => {
    const strip = (name: string) => {
      const { preset: _p, reward, ...rest } = getPreset(name);
      const { lambda1: _l1, lambda2: _l2, ...r } = reward;
      return { ...rest, r };
    };
    expect(strip('spurious')).toEqual(strip('parl'));
    expect(strip('serial-collapse')).toEqual(strip('parl'));
    expect(getPreset('serial-collapse').reward.lambda1).toEqual({ kind: 'constant', value: 0 });
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
    expect(() => resolveTrainingConfig({ policy: { widthGrid: ['1', 'lots'] } })).toThrow(/policy\.widthGrid\[1\] must be a width rule/);
    expect(() => resolveTrainingConfig({ policy: { initialHabit: { width: '3m' } } })).toThrow(/policy\.initialHabit\.width must be a value of policy\.widthGrid/);
    expect(() => resolveTrainingConfig('steps=3')).toThrow(/config must be an object/);
  });
});

describe('width rules', () => {
  it('turn a choice into a group size for m subtasks, within the group limit', () => {
    expect(widthOf(parseWidthRule('1'), 20, 100)).toBe(1);
    expect(widthOf(parseWidthRule('m'), 20, 100)).toBe(20);
    expect(widthOf(parseWidthRule('m/4'), 10, 100)).toBe(3);
    expect(widthOf(parseWidthRule('4m'), 30, 100)).toBe(100);
    expect(widthOf(parseWidthRule('max'), 3, 64)).toBe(64);
    expect(() => parseWidthRule('m/0')).toThrow(/must be a width rule/);
    expect(() => parseWidthRule(3)).toThrow(/must be a width rule/);
  });
});
