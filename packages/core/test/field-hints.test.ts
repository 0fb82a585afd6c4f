import { describe, expect, it } from 'vitest';
import {
  computeReward,
  EPISODE_RECORD_FIELDS,
  LABEL_FIELDS,
  labelReward,
  ParlInputError,
  recordFieldHints,
  suggestField,
  validateRecord,
  type EpisodeRecord,
} from '../src/index.js';

describe('suggestField', () => {
  it('names the spec field a near miss means: a letter dropped, added, changed or swapped, or another case/separator', () => {
    expect(suggestField('num_subagent')).toBe('num_subagents');
    expect(suggestField('num_subagentss')).toBe('num_subagents');
    expect(suggestField('sucess')).toBe('success');
    expect(suggestField('r_pref')).toBe('r_perf');
    expect(suggestField('completed_subtask')).toBe('completed_subtasks');
    expect(suggestField('numSubagents')).toBe('num_subagents');
    expect(suggestField('Training-Step')).toBe('training_step');
    expect(suggestField('trainingstep')).toBe('training_step');
    expect(suggestField('assgined_subtasks')).toBe('assigned_subtasks');
  });

  it('leaves known fields, far-off extra fields and short names alone', () => {
    for (const known of [...EPISODE_RECORD_FIELDS, ...LABEL_FIELDS]) expect(suggestField(known), known).toBeUndefined();
    for (const extra of ['task', 'prompt', 'family', 'subtasks', 'end_reason', 'solved_correctly', 'model', 'ids', 'idx']) {
      expect(suggestField(extra), extra).toBeUndefined();
    }
  });

  it('takes the list of known names to match against', () => {
    expect(suggestField('main_step', ['main_steps', 'sub_steps'])).toBe('main_steps');
    expect(suggestField('num_subagent', ['main_steps', 'sub_steps'])).toBeUndefined();
  });
});

describe('recordFieldHints', () => {
  it('finds misspelt fields at every level of a record, with their paths and one line each', () => {
    const hints = recordFieldHints({
      num_subagent: 25,
      task: 'kept',
      stages: [{ main_step: 1, sub_steps: [3, { step: 4, finished: true }] }],
    });
    expect(hints).toEqual([
      { field: 'num_subagent', suggestion: 'num_subagents', value: 25, message: 'num_subagent: did you mean num_subagents?' },
      { field: 'stages[0].main_step', suggestion: 'main_steps', value: 1, message: 'stages[0].main_step: did you mean main_steps?' },
      { field: 'stages[0].sub_steps[1].step', suggestion: 'steps', value: 4, message: 'stages[0].sub_steps[1].step: did you mean steps?' },
    ]);
  });

  it('is empty for a clean record, a labelled record and anything that is not an object', () => {
    const record: EpisodeRecord = { id: 'a', num_subagents: 3, success: true, stages: [{ main_steps: 1, sub_steps: [{ steps: 2, finished: false }] }] };
    expect(recordFieldHints(record)).toEqual([]);
    expect(recordFieldHints(labelReward(record))).toEqual([]);
    for (const value of [null, 3, 'num_subagent', [{ num_subagent: 1 }]]) expect(recordFieldHints(value)).toEqual([]);
  });
});

describe('the strict option', () => {
  const typo = { num_subagent: 25, success: true };

  it('is off by default: a misspelt field is an extra field, as spec §5 says (r_parallel 0)', () => {
    expect(validateRecord(typo).numSubagents).toBe(0);
    expect(computeReward(typo as EpisodeRecord).r_parallel).toBe(0);
  });

  it('makes validateRecord reject the field, naming the location, the field, the hint and the value', () => {
    expect(() => validateRecord(typo, 'line 3', { strict: true })).toThrow(
      new ParlInputError('num_subagent', 25, 'a known field (did you mean num_subagents?)', 'line 3', 'PARL_ERR_UNKNOWN_NAME'),
    );
    expect(() => validateRecord(typo, 'line 3', { strict: true })).toThrow(
      'line 3: num_subagent must be a known field (did you mean num_subagents?), got 25',
    );
    expect(() => validateRecord({ stages: [{ main_step: 2 }] }, undefined, { strict: true })).toThrow(
      'stages[0].main_step must be a known field (did you mean main_steps?), got 2',
    );
    expect(validateRecord({ num_subagents: 25, task: 'x', success: true }, undefined, { strict: true }).numSubagents).toBe(25);
  });

  it('is a reward option: computeReward and labelReward reject the field with { strict: true }', () => {
    expect(() => computeReward(typo as EpisodeRecord, { strict: true })).toThrow(/num_subagent must be a known field \(did you mean num_subagents\?\)/);
    expect(() => labelReward(typo, { strict: true }, 'line 9')).toThrow(/^line 9: num_subagent must be a known field/);
    expect(() => computeReward({ r_perf: 1 }, { strict: 'yes' as unknown as boolean })).toThrow('strict must be a boolean, got "yes"');
  });

  it('leaves TypeScript to catch a misspelt field in an object literal at compile time', () => {
    // @ts-expect-error num_subagent is not a field of EpisodeRecord: `pnpm typecheck` fails if this compiles
    const reward = computeReward({ num_subagent: 25, success: true });
    expect(reward.r_parallel).toBe(0);
  });
});

describe('hint messages', () => {
  it('stay on one line when a field name holds a line break (shown as a JSON string)', () => {
    const [hint] = recordFieldHints({ stages: [{ 'mai\n_steps': 1 }] });
    expect(hint?.message).toBe('stages[0]."mai\\n_steps": did you mean main_steps?');
    expect(hint?.field).toBe('stages[0].mai\n_steps');
  });
});
