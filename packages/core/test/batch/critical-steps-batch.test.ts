import { describe, expect, it } from 'vitest';
import { ParlInputError, allocateCriticalStepsBatchOutput, criticalSteps, criticalStepsBatch } from '../../src/index.js';
import { messageOf } from '../support.js';

// B = 2, T = 3, N = 3. Episode 0 is the spec example: groups [3,5,2], [4,9], []; episode 1 uses
// two stages: [7] with 2 main steps, then [1,1,1].
const SUB = new Float32Array([3, 5, 2, 4, 9, 99, 99, 99, 99, 7, 99, 99, 1, 1, 1, 99, 99, 99]);
const GROUPS = new Int32Array([3, 2, 0, 1, 3, 0]);
const MAINS = new Float64Array([1, 1, 1, 2, 1, 1]);
const USED = new Uint8Array([3, 2]);

describe('criticalStepsBatch', () => {
  it('ragged episodes: entries past a group and stages past numStages are ignored', () => {
    const out = criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: SUB, groupSizes: GROUPS, mainSteps: MAINS, numStages: USED });
    // episode 0: critical 6 + 10 + 1 = 17, total 11 + 14 + 1 = 26, widest 3
    // episode 1: critical (2 + 7) + (1 + 1) = 11, total (2 + 7) + (1 + 3) = 13, widest 3
    expect(Array.from(out.critical_steps)).toEqual([17, 11]);
    expect(Array.from(out.total_steps)).toEqual([26, 13]);
    expect(Array.from(out.parallelism)).toEqual([26 / 17, 13 / 11]);
    expect(Array.from(out.max_width)).toEqual([3, 3]);
    expect(out.critical_steps[0]).toBe(
      criticalSteps([{ main_steps: 1, sub_steps: [3, 5, 2] }, { main_steps: 1, sub_steps: [4, 9] }, { main_steps: 1 }]).critical_steps,
    );
  });

  it('defaults: full groups, one main step a stage, every stage used', () => {
    const out = criticalStepsBatch({ batch: 1, stages: 2, width: 2, subSteps: new Float64Array([1, 4, 0.5, 0.25]) });
    // (1 + 4) + (1 + 0.5) = 6.5 critical; (1 + 5) + (1 + 0.75) = 7.75 total
    expect(out.critical_steps[0]).toBe(6.5);
    expect(out.total_steps[0]).toBe(7.75);
    expect(out.max_width[0]).toBe(2);
  });

  it('zero stages or zero critical steps give parallelism 1', () => {
    const none = criticalStepsBatch({ batch: 1, stages: 2, width: 1, subSteps: [0, 0] as never, numStages: [0] });
    expect([none.critical_steps[0], none.parallelism[0], none.max_width[0]]).toEqual([0, 1, 0]);
    const zeros = criticalStepsBatch({ batch: 1, stages: 1, width: 2, subSteps: new Float32Array(2), mainSteps: [0] });
    expect([zeros.critical_steps[0], zeros.parallelism[0]]).toEqual([0, 1]);
    expect(criticalStepsBatch({ batch: 0, stages: 5, width: 5, subSteps: new Float32Array(0) }).critical_steps.length).toBe(0);
  });

  it('writes into preallocated outputs', () => {
    const out = allocateCriticalStepsBatchOutput(3);
    expect(out.max_width).toBeInstanceOf(Int32Array);
    out.critical_steps.fill(-1);
    expect(criticalStepsBatch({ batch: 1, stages: 1, width: 1, subSteps: new Float32Array([2]) }, out)).toBe(out);
    expect(Array.from(out.critical_steps)).toEqual([3, -1, -1]);
  });

  it('bad shapes and lengths name the array and the shape', () => {
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: new Float32Array(17) }))).toBe(
      'subSteps.length must be 18 (shape [2, 3, 3]), got 17',
    );
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: SUB, groupSizes: new Int32Array(5) }))).toBe(
      'groupSizes.length must be 6 (shape [2, 3]), got 5',
    );
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: SUB, mainSteps: [1] }))).toBe(
      'mainSteps.length must be 6 (shape [2, 3]), got 1',
    );
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: SUB, numStages: [3] }))).toBe(
      'numStages.length must be 2 (shape [2]), got 1',
    );
    expect(messageOf(() => criticalStepsBatch({ batch: -1, stages: 3, width: 3, subSteps: SUB }))).toBe('batch must be an integer ≥ 0, got -1');
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 1.5, width: 3, subSteps: SUB }))).toBe('stages must be an integer ≥ 0, got 1.5');
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: Number.NaN, subSteps: SUB }))).toBe('width must be an integer ≥ 0, got NaN');
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: SUB }, allocateCriticalStepsBatchOutput(1)))).toBe(
      'out.critical_steps.length must be at least 2, got 1',
    );
  });

  it('bad group sizes and stage counts name their index', () => {
    const base = { batch: 2, stages: 3, width: 3, subSteps: SUB };
    expect(messageOf(() => criticalStepsBatch({ ...base, groupSizes: new Int32Array([3, 2, 0, 1, 4, 0]) }))).toBe(
      'groupSizes[1, 1] must be an integer between 0 and 3, got 4',
    );
    expect(messageOf(() => criticalStepsBatch({ ...base, groupSizes: new Float32Array([3, -1, 0, 1, 1, 0]) }))).toBe(
      'groupSizes[0, 1] must be an integer between 0 and 3, got -1',
    );
    expect(messageOf(() => criticalStepsBatch({ ...base, groupSizes: new Float32Array([1.5, 1, 0, 1, 1, 0]) }))).toBe(
      'groupSizes[0, 0] must be an integer between 0 and 3, got 1.5',
    );
    expect(messageOf(() => criticalStepsBatch({ ...base, groupSizes: new Float64Array([Number.NaN, 1, 0, 1, 1, 0]) }))).toBe(
      'groupSizes[0, 0] must be an integer between 0 and 3, got NaN',
    );
    expect(messageOf(() => criticalStepsBatch({ ...base, numStages: [3, 4] }))).toBe('numStages[1] must be an integer between 0 and 3, got 4');
    expect(messageOf(() => criticalStepsBatch({ ...base, numStages: [0.5, 1] }))).toBe('numStages[0] must be an integer between 0 and 3, got 0.5');
  });

  it('bad steps name their [b, t, i] index; nothing becomes NaN', () => {
    const sub = Float32Array.from(SUB);
    sub[10] = -3; // b = 1, t = 0, i = 1
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: sub }))).toBe('subSteps[1, 0, 1] must be a finite number ≥ 0, got -3');
    sub[10] = Number.NaN;
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: sub }))).toBe('subSteps[1, 0, 1] must be a finite number ≥ 0, got NaN');
    sub[10] = Number.POSITIVE_INFINITY;
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: sub }))).toBe(
      'subSteps[1, 0, 1] must be a finite number ≥ 0, got Infinity',
    );
    // the bad entry lies past its group (size 1): ignored
    expect(criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: sub, groupSizes: GROUPS }).critical_steps[1]).toBe(11);
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: SUB, mainSteps: [1, 1, 1, 1, -0.5, 1] }))).toBe(
      'mainSteps[1, 1] must be a finite number ≥ 0, got -0.5',
    );
    expect(messageOf(() => criticalStepsBatch({ batch: 2, stages: 3, width: 3, subSteps: SUB, mainSteps: [1, 1, Number.NaN, 1, 1, 1] }))).toBe(
      'mainSteps[0, 2] must be a finite number ≥ 0, got NaN',
    );
    expect(messageOf(() => criticalStepsBatch({ batch: 1, stages: 1, width: 1, subSteps: SUB.subarray(0, 1), mainSteps: ['1' as unknown as number] }))).toBe(
      'mainSteps[0, 0] must be a finite number ≥ 0, got "1"',
    );
    expect(messageOf(() => criticalStepsBatch({ batch: 1, stages: 1, width: 1, subSteps: SUB.subarray(0, 1), groupSizes: ['1' as unknown as number] }))).toBe(
      'groupSizes[0, 0] must be an integer between 0 and 1, got "1"',
    );
  });
});
