import { describe, expect, it } from 'vitest';
import { ParlInputError, isValidatedEpisode, validateRecord, validateStages } from '../src/index.js';
import { messageOf, SPEC_RECORD } from './support.js';

describe('validateStages', () => {
  it('normalises numbers and {steps, finished} entries; missing sub_steps is an empty group', () => {
    expect(validateStages(SPEC_RECORD.stages.concat([{ main_steps: 0.1 } as never]))).toEqual([
      { main: 1, sub: [3, 5, 2], finished: [undefined, undefined, undefined] },
      { main: 1, sub: [4, 9], finished: [true, false] },
      { main: 1, sub: [], finished: [] },
      { main: 0.1, sub: [], finished: [] },
    ]);
  });

  it('names the path of a bad step: negative, NaN, Infinity, string, missing', () => {
    expect(messageOf(() => validateStages([{ main_steps: 1 }, { main_steps: 1 }, { main_steps: 1, sub_steps: [-3] }]))).toBe(
      'stages[2].sub_steps[0] must be a finite number ≥ 0, got -3',
    );
    expect(messageOf(() => validateStages([{ main_steps: Number.NaN }]))).toBe('stages[0].main_steps must be a finite number ≥ 0, got NaN');
    expect(messageOf(() => validateStages([{ main_steps: 1, sub_steps: [1, Number.POSITIVE_INFINITY] }]))).toBe(
      'stages[0].sub_steps[1] must be a finite number ≥ 0, got Infinity',
    );
    expect(messageOf(() => validateStages([{ main_steps: '1' }]))).toBe('stages[0].main_steps must be a finite number ≥ 0, got "1"');
    expect(messageOf(() => validateStages([{ sub_steps: [1] }]))).toBe('stages[0].main_steps must be a finite number ≥ 0, got undefined (missing)');
    expect(messageOf(() => validateStages([{ main_steps: 1, sub_steps: [{ steps: -1 }] }]))).toBe(
      'stages[0].sub_steps[0].steps must be a finite number ≥ 0, got -1',
    );
    expect(messageOf(() => validateStages([{ main_steps: 1, sub_steps: [{ finished: true }] }]))).toBe(
      'stages[0].sub_steps[0].steps must be a finite number ≥ 0, got undefined (missing)',
    );
  });

  it('names a wrongly typed stage, group, entry or flag', () => {
    expect(messageOf(() => validateStages({}))).toBe('stages must be an array, got {}');
    expect(messageOf(() => validateStages([3]))).toBe('stages[0] must be an object, got 3');
    expect(messageOf(() => validateStages([{ main_steps: 1, sub_steps: 4 }]))).toBe('stages[0].sub_steps must be an array, got 4');
    expect(messageOf(() => validateStages([{ main_steps: 1, sub_steps: ['4'] }]))).toBe(
      'stages[0].sub_steps[0] must be a finite number ≥ 0 or an object {"steps": number, "finished"?: boolean, "wait_steps"?: number} or {"stages": [...], "finished"?: boolean, "wait_steps"?: number}, got "4"',
    );
    expect(messageOf(() => validateStages([{ main_steps: 1, sub_steps: [{ steps: 2, finished: 'yes' }] }]))).toBe(
      'stages[0].sub_steps[0].finished must be a boolean, got "yes"',
    );
    expect(messageOf(() => validateStages([{ main_steps: -1 }], 'episode.stages'))).toBe(
      'episode.stages[0].main_steps must be a finite number ≥ 0, got -1',
    );
  });
});

describe('validateRecord: counts (spec §5)', () => {
  it('keeps the counts the spec example gives', () => {
    const e = validateRecord(SPEC_RECORD);
    expect(e.id).toBe('task-17/rollout-3');
    expect(e.trainingStep).toBe(5000);
    expect([e.numSubagents, e.assigned, e.completed, e.countsFromStages]).toEqual([25, 25, 20, false]);
    expect(e.perf).toEqual({ kind: 'success', success: true, quality: 0.8 });
    expect(e.stages).toHaveLength(3);
    expect(isValidatedEpisode(e)).toBe(true);
    expect(isValidatedEpisode({ ...e })).toBe(false);
  });

  it('counts num_subagents from stages; assigned and completed from finished flags', () => {
    // launched: 3 + 2 + 0 = 5; flags: one finished: false → completed = 5 − 1 = 4
    const { num_subagents: _n, assigned_subtasks: _a, completed_subtasks: _c, ...rest } = SPEC_RECORD;
    const e = validateRecord(rest);
    expect([e.numSubagents, e.assigned, e.completed, e.countsFromStages]).toEqual([5, 5, 4, true]);
  });

  it('a given assigned count wins over the flags; completed still comes from them', () => {
    const e = validateRecord({ assigned_subtasks: 8, stages: SPEC_RECORD.stages, r_perf: 0 });
    expect([e.numSubagents, e.assigned, e.completed, e.countsFromStages]).toEqual([5, 8, 4, true]);
  });

  it('without flags: assigned defaults to num_subagents, completed to assigned [ref]', () => {
    const e = validateRecord({ num_subagents: 7, r_perf: 1 });
    expect([e.numSubagents, e.assigned, e.completed, e.countsFromStages]).toEqual([7, 7, 7, false]);
    const f = validateRecord({ stages: [{ main_steps: 1, sub_steps: [1, 2] }], r_perf: 1 });
    expect([f.numSubagents, f.assigned, f.completed]).toEqual([2, 2, 2]);
    const g = validateRecord({ num_subagents: 7, assigned_subtasks: 4, r_perf: 1 });
    expect([g.assigned, g.completed]).toEqual([4, 4]);
  });

  it('an empty record has zero counts and no r_perf', () => {
    const e = validateRecord({});
    expect([e.numSubagents, e.assigned, e.completed]).toEqual([0, 0, 0]);
    expect(e.stages).toBeUndefined();
    expect(e.trainingStep).toBeUndefined();
    expect(e.perf).toEqual({ kind: 'none' });
  });
});

describe('validateRecord: r_perf sources', () => {
  it('reads each of the three ways', () => {
    expect(validateRecord({ r_perf: -0.25 }).perf).toEqual({ kind: 'direct', value: -0.25 });
    expect(validateRecord({ success: 1 }).perf).toEqual({ kind: 'success', success: true, quality: 1 });
    expect(validateRecord({ success: 0, quality: 0.5 }).perf).toEqual({ kind: 'success', success: false, quality: 0.5 });
    expect(validateRecord({ success: true, trajectory_features: [0.2, 0.9, 0.4] }).perf).toEqual({
      kind: 'features',
      success: true,
      features: [0.2, 0.9, 0.4],
    });
  });

  it('two ways at once is an error', () => {
    expect(messageOf(() => validateRecord({ r_perf: 0.8, success: true }))).toBe('r_perf must be given in one way only, but success is given too, got 0.8');
    expect(messageOf(() => validateRecord({ r_perf: 0.8, quality: 1 }))).toBe('r_perf must be given in one way only, but quality is given too, got 0.8');
    expect(messageOf(() => validateRecord({ r_perf: 0.8, trajectory_features: [1] }))).toBe(
      'r_perf must be given in one way only, but trajectory_features is given too, got 0.8',
    );
    expect(messageOf(() => validateRecord({ success: true, quality: 0.5, trajectory_features: [1] }))).toBe(
      'quality must be absent when trajectory_features gives r_perf (one way only), got 0.5',
    );
  });

  it('a half-given way is an error', () => {
    expect(messageOf(() => validateRecord({ quality: 0.5 }))).toBe('success must be a boolean or 0/1 when quality is given, got undefined (missing)');
    expect(messageOf(() => validateRecord({ trajectory_features: [0.5] }))).toBe(
      'success must be a boolean or 0/1 when trajectory_features is given, got undefined (missing)',
    );
    expect(messageOf(() => validateRecord({ success: true, trajectory_features: [] }))).toBe(
      'trajectory_features must be a non-empty array of finite numbers, got []',
    );
  });

  it('wrongly typed r_perf fields', () => {
    expect(messageOf(() => validateRecord({ r_perf: Number.NaN }))).toBe('r_perf must be a finite number, got NaN');
    expect(messageOf(() => validateRecord({ r_perf: '0.8' }))).toBe('r_perf must be a finite number, got "0.8"');
    expect(messageOf(() => validateRecord({ r_perf: null }))).toBe('r_perf must be a finite number, got null');
    expect(messageOf(() => validateRecord({ success: 'yes' }))).toBe('success must be a boolean or 0/1, got "yes"');
    expect(messageOf(() => validateRecord({ success: 2 }))).toBe('success must be a boolean or 0/1, got 2');
    expect(messageOf(() => validateRecord({ success: true, quality: Number.POSITIVE_INFINITY }))).toBe('quality must be a finite number, got Infinity');
    expect(messageOf(() => validateRecord({ success: true, trajectory_features: [0.1, 'x'] }))).toBe(
      'trajectory_features[1] must be a finite number, got "x"',
    );
    expect(messageOf(() => validateRecord({ success: true, trajectory_features: 0.1 }))).toBe('trajectory_features must be an array, got 0.1');
  });
});

describe('validateRecord: errors name the record, field, value and expectation', () => {
  it('completed > assigned', () => {
    expect(messageOf(() => validateRecord({ assigned_subtasks: 3, completed_subtasks: 4, r_perf: 0 }))).toBe(
      'completed_subtasks must be at most assigned_subtasks (3), got 4',
    );
    expect(messageOf(() => validateRecord({ num_subagents: 2, completed_subtasks: 5, r_perf: 0 }, 'line 4'))).toBe(
      'line 4: completed_subtasks must be at most assigned_subtasks (2), got 5',
    );
  });

  it('the spec message, with its line number', () => {
    const rec = { stages: [{ main_steps: 1 }, { main_steps: 1 }, { main_steps: 1, sub_steps: [-3] }] };
    expect(messageOf(() => validateRecord(rec, 'line 17'))).toBe('line 17: stages[2].sub_steps[0] must be a finite number ≥ 0, got -3');
    try {
      validateRecord(rec, 'line 17');
    } catch (err) {
      expect((err as ParlInputError).location).toBe('line 17');
      expect((err as ParlInputError).field).toBe('stages[2].sub_steps[0]');
    }
  });

  it('bad counts, steps, ids and records', () => {
    expect(messageOf(() => validateRecord({ num_subagents: -1 }))).toBe('num_subagents must be an integer ≥ 0, got -1');
    expect(messageOf(() => validateRecord({ num_subagents: 2.5 }))).toBe('num_subagents must be an integer ≥ 0, got 2.5');
    expect(messageOf(() => validateRecord({ assigned_subtasks: '3' }))).toBe('assigned_subtasks must be an integer ≥ 0, got "3"');
    expect(messageOf(() => validateRecord({ completed_subtasks: Number.NaN }))).toBe('completed_subtasks must be an integer ≥ 0, got NaN');
    expect(messageOf(() => validateRecord({ training_step: -5 }))).toBe('training_step must be a finite number ≥ 0, got -5');
    expect(messageOf(() => validateRecord({ training_step: Number.POSITIVE_INFINITY }))).toBe('training_step must be a finite number ≥ 0, got Infinity');
    expect(messageOf(() => validateRecord({ id: { a: 1 } }))).toBe('id must be a string or a number, got {"a":1}');
    expect(messageOf(() => validateRecord([1, 2], 'record 3'))).toBe('record 3: record must be an object, got [1,2]');
    expect(messageOf(() => validateRecord(null))).toBe('record must be an object, got null');
  });

  it('lets other errors through untouched', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new RangeError('boom');
        },
      },
    );
    expect(() => validateRecord(hostile, 'line 1')).toThrow(RangeError);
  });
});
