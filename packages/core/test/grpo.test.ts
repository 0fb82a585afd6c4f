import { describe, expect, it } from 'vitest';
import { GRPO_EPSILON, groupedAdvantages, grpoAdvantages, ParlInputError } from '../src/index.js';

describe('grpoAdvantages', () => {
  it('centres on the group mean and divides by the population standard deviation plus 1e-6', () => {
    // mean 2, population variance ((1-2)^2 + 0 + (3-2)^2) / 3 = 2/3
    const std = Math.sqrt(2 / 3);
    const got = grpoAdvantages([1, 2, 3]);
    expect(got[0]).toBeCloseTo(-1 / (std + GRPO_EPSILON), 12);
    expect(got[1]).toBe(0);
    expect(got[2]).toBeCloseTo(1 / (std + GRPO_EPSILON), 12);
  });

  it('gives 0 to every sample of a group of equal rewards, and to a group of one', () => {
    expect(grpoAdvantages([0.5, 0.5, 0.5])).toEqual([0, 0, 0]);
    expect(grpoAdvantages([7])).toEqual([0]);
  });

  it('sums to zero over the group', () => {
    const got = grpoAdvantages([0.1, 0.9, 0.35, 0.2]);
    expect(got.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 12);
  });

  it("with scale 'none' subtracts the group mean only (the K2.5 baseline the simulator trains with)", () => {
    expect(grpoAdvantages([1, 0, 0.5, 0.5], { scale: 'none' })).toEqual([0.5, -0.5, 0, 0]);
    expect(grpoAdvantages([0.25, 0.25], { scale: 'none' })).toEqual([0, 0]);
    expect(() => grpoAdvantages([1, Number.POSITIVE_INFINITY], { scale: 'none' })).toThrow(/rewards\[1\]/);
  });

  it('groupedAdvantages: every group of K on its own, into the array given, as grpoAdvantages of each group', () => {
    const rewards = [1, 0, 0.5, 0.5, 0.2, 0.8];
    const out = new Float64Array(6);
    expect(groupedAdvantages(rewards, 2, { scale: 'none' }, out)).toBe(out);
    expect(Array.from(out)).toEqual([...grpoAdvantages([1, 0], { scale: 'none' }), ...grpoAdvantages([0.5, 0.5], { scale: 'none' }), ...grpoAdvantages([0.2, 0.8], { scale: 'none' })]);
    expect(Array.from(groupedAdvantages(rewards, 3))).toEqual([...grpoAdvantages([1, 0, 0.5]), ...grpoAdvantages([0.5, 0.2, 0.8])]);
    expect(() => groupedAdvantages(rewards, 4)).toThrow(/groupSize/);
  });

  it('rejects an empty group and a non-finite reward, naming the field', () => {
    expect(() => grpoAdvantages([])).toThrow(ParlInputError);
    expect(() => grpoAdvantages([1, Number.NaN])).toThrow(/rewards\[1\]/);
  });
});
