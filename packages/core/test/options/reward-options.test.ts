import { describe, expect, it } from 'vitest';
import { ParlInputError } from '../../src/errors.js';
import { labelCriticalSteps } from '../../src/labels.js';
import { optionRows } from '../../src/options/option-table.js';
import { CRITICAL_STEPS_OPTIONS, REWARD_OPTIONS } from '../../src/options/reward-options.js';
import { resolveOptions } from '../../src/options/resolve-options.js';
import { computeReward, REWARD_DEFAULTS } from '../../src/reward.js';

const RECORD = { training_step: 2500, num_subagents: 30, assigned_subtasks: 4, completed_subtasks: 3, r_perf: 0.5, stages: [{ main_steps: 2, sub_steps: [5, 9] }] };

describe('REWARD_OPTIONS', () => {
  it('offers every reward option as a flag and as a query parameter (training_step for --step)', () => {
    expect(optionRows(REWARD_OPTIONS).map(([, r]) => r.flag)).toEqual(['max-subagents', 'lambda1', 'lambda2', 'total-steps', 'step', 'parallel-shape', 'budget', 'on-budget']);
    expect(optionRows(REWARD_OPTIONS).map(([, r]) => r.query)).toEqual(['max-subagents', 'lambda1', 'lambda2', 'total-steps', 'training_step', 'parallel-shape', 'budget', 'on-budget']);
  });

  it('gives the reward of core defaults when nothing is given', () => {
    const options = resolveOptions(REWARD_OPTIONS, {}, 'flag');
    expect(options).toEqual({ maxSubagents: REWARD_DEFAULTS.maxSubagents, totalTrainingSteps: 10000, parallelShape: 'linear', onBudget: 'fail' });
    expect(computeReward(RECORD, options)).toEqual(computeReward(RECORD));
  });

  it('gives the same config from flags and from the query, and the reward the values describe', () => {
    const flags = resolveOptions(REWARD_OPTIONS, { step: '3000', lambda1: 'step:0.1,0.05,0:3000,6000', lambda2: '{"kind":"constant","value":0.3}', 'max-subagents': '20', 'parallel-shape': 'log', budget: '7', 'on-budget': 'truncate' }, 'flag');
    const query = resolveOptions(REWARD_OPTIONS, { training_step: '3000', lambda1: 'step:0.1,0.05,0:3000,6000', lambda2: 'constant:0.3', 'max-subagents': '20', 'parallel-shape': 'log', budget: '7', 'on-budget': 'truncate' }, 'query');
    expect(query).toEqual(flags);
    expect(structuredClone(flags)).toEqual(flags);
    expect(computeReward(RECORD, flags)).toEqual(
      computeReward(RECORD, { step: 3000, lambda1: 'step:0.1,0.05,0:3000,6000', lambda2: 'constant:0.3', maxSubagents: 20, parallelShape: 'log', budget: 7, onBudget: 'truncate' }),
    );
  });

  it('names the parameter and suggests the closest one for a typo', () => {
    expect(() => resolveOptions(REWARD_OPTIONS, { 'parallel-shape': 'cubic' }, 'query')).toThrow('query.parallel-shape must be one of linear, log, got "cubic"');
    expect(() => resolveOptions(REWARD_OPTIONS, { step: '100' }, 'query')).toThrow(ParlInputError);
    expect(() => resolveOptions(REWARD_OPTIONS, { lamda1: 'constant:0' }, 'query')).toThrow('query.lamda1 must be a known query parameter (did you mean lambda1?)');
    expect(() => resolveOptions(REWARD_OPTIONS, { lambda1: 'linear:0.1:0:-5' }, 'flag')).toThrow('--lambda1.steps must be a finite number > 0, got -5');
  });
});

describe('CRITICAL_STEPS_OPTIONS', () => {
  it('resolves --budget and --on-budget into the options labelCriticalSteps takes', () => {
    const options = resolveOptions(CRITICAL_STEPS_OPTIONS, { budget: '8', 'on-budget': 'truncate' }, 'flag');
    expect(options).toEqual({ budget: 8, onBudget: 'truncate' });
    expect(labelCriticalSteps(RECORD, options)).toEqual(labelCriticalSteps(RECORD, { budget: 8, onBudget: 'truncate' }));
    expect(optionRows(CRITICAL_STEPS_OPTIONS).every(([, r]) => r.query === undefined)).toBe(true);
  });
});
