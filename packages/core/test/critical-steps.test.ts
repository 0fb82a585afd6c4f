import { describe, expect, it } from 'vitest';
import { ParlInputError, criticalSteps, criticalStepsOfStages, parallelismOf, validateStages, type StageRecord } from '../src/index.js';
import { messageOf, SPEC_STAGES } from './support.js';

describe('criticalSteps', () => {
  it('the spec example record', () => {
    // critical = (1 + max(3,5,2)) + (1 + max(4,9)) + (1 + 0) = 6 + 10 + 1 = 17
    // total    = (1 + 3+5+2)      + (1 + 4+9)      + (1 + 0) = 11 + 14 + 1 = 26
    // widths 3, 2, 0 → max 3, mean over stages with a group = (3 + 2) / 2 = 2.5
    expect(criticalSteps(SPEC_STAGES)).toEqual({
      critical_steps: 17,
      total_steps: 26,
      parallelism: 26 / 17,
      num_stages: 3,
      max_width: 3,
      mean_width: 2.5,
    });
  });

  it('a serial episode has parallelism 1', () => {
    // four stages of 1 main step and one sub-agent of 4 steps: critical = total = 4·5 = 20
    const r = criticalSteps(Array.from({ length: 4 }, () => ({ main_steps: 1, sub_steps: [4] })));
    expect(r).toEqual({ critical_steps: 20, total_steps: 20, parallelism: 1, num_stages: 4, max_width: 1, mean_width: 1 });
  });

  it('fractional main steps and stages without sub_steps', () => {
    // (0.5 + 2) + 0.25 = 2.75 critical; (0.5 + 2 + 2) + 0.25 = 4.75 total
    const r = criticalSteps([{ main_steps: 0.5, sub_steps: [2, 2] }, { main_steps: 0.25 }]);
    expect(r.critical_steps).toBe(2.75);
    expect(r.total_steps).toBe(4.75);
    expect(r.parallelism).toBe(4.75 / 2.75);
    expect(r.mean_width).toBe(2);
  });

  it('no stages, or only zero steps: critical steps 0 and parallelism 1', () => {
    expect(criticalSteps([])).toEqual({ critical_steps: 0, total_steps: 0, parallelism: 1, num_stages: 0, max_width: 0, mean_width: 0 });
    const zero = criticalSteps([{ main_steps: 0, sub_steps: [0, 0] }]);
    expect([zero.critical_steps, zero.parallelism, zero.max_width]).toEqual([0, 1, 2]);
  });

  it('criticalStepsOfStages equals criticalSteps on validated stages', () => {
    expect(criticalStepsOfStages(validateStages(SPEC_STAGES))).toEqual(criticalSteps(SPEC_STAGES));
  });

  it('rejects negative, NaN, Infinity and string steps by path', () => {
    expect(messageOf(() => criticalSteps([{ main_steps: 1, sub_steps: [1, -2] }]))).toBe('stages[0].sub_steps[1] must be a finite number ≥ 0, got -2');
    expect(messageOf(() => criticalSteps([{ main_steps: Number.NaN }]))).toBe('stages[0].main_steps must be a finite number ≥ 0, got NaN');
    expect(messageOf(() => criticalSteps([{ main_steps: 1 }, { main_steps: Number.POSITIVE_INFINITY }]))).toBe(
      'stages[1].main_steps must be a finite number ≥ 0, got Infinity',
    );
    expect(messageOf(() => criticalSteps([{ main_steps: 1, sub_steps: [{ steps: '3' }] }] as never))).toBe(
      'stages[0].sub_steps[0].steps must be a finite number ≥ 0, got "3"',
    );
  });
});

describe('parallelismOf', () => {
  it('is work over critical steps, 1 when critical steps is 0', () => {
    expect(parallelismOf(26, 13)).toBe(2);
    expect(parallelismOf(0, 0)).toBe(1);
    expect(parallelismOf(5, 0)).toBe(1);
  });
});
