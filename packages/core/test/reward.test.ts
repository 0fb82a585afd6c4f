import { describe, expect, it } from 'vitest';
import {
  PARALLEL_SHAPES,
  ParlInputError,
  REWARD_DEFAULTS,
  combineReward,
  computeReward,
  parseSchedule,
  rFinish,
  rParallel,
  rPerf,
  resolveRewardConfig,
  rewardOfEpisode,
  validateRecord,
  type RewardConfig,
} from '../src/index.js';
import { messageOf, SPEC_RECORD } from './support.js';

describe('defaults equal open-parl [ref]', () => {
  it('λ linear 0.1 → 0 over 10000 steps, max_subagents 100, linear shape, budget fail', () => {
    expect(REWARD_DEFAULTS).toEqual({ maxSubagents: 100, lambdaInit: 0.1, lambdaFinal: 0, totalTrainingSteps: 10000, parallelShape: 'linear' });
    const cfg = resolveRewardConfig();
    expect(cfg.maxSubagents).toBe(100);
    expect(cfg.lambda1.spec).toEqual({ kind: 'linear', from: 0.1, to: 0, steps: 10000 });
    expect(cfg.lambda2.spec).toEqual({ kind: 'linear', from: 0.1, to: 0, steps: 10000 });
    expect(cfg.parallelShape).toBe('linear');
    expect(cfg.onBudget).toBe('fail');
    expect(cfg.step).toBeUndefined();
    expect(cfg.budget).toBeUndefined();
    expect(PARALLEL_SHAPES).toEqual(['linear', 'log']);
  });

  it('totalTrainingSteps stretches the default schedules but not given ones', () => {
    const cfg = resolveRewardConfig({ totalTrainingSteps: 2000, lambda2: 'constant:0.3' });
    // 0.1 + (0 − 0.1)·(1000/2000) = 0.05
    expect(cfg.lambda1.at(1000)).toBe(0.05);
    expect(cfg.lambda2.at(1000)).toBe(0.3);
  });

  it('a resolved config is used as is', () => {
    const cfg = resolveRewardConfig({ maxSubagents: 10 });
    expect(resolveRewardConfig(cfg)).toBe(cfg);
    // a look-alike that was not resolved is validated again
    expect(messageOf(() => resolveRewardConfig({ ...cfg, maxSubagents: -1 }))).toBe('maxSubagents must be a finite number > 0, got -1');
  });
});

describe('the spec example record (spec §3, §5)', () => {
  it('gives every breakdown field', () => {
    const r = computeReward(SPEC_RECORD);
    // s = 5000: λ1 = λ2 = 0.1 − 0.1·0.5 = 0.05
    expect(r.lambda1).toBe(0.05);
    expect(r.lambda2).toBe(0.05);
    // r_parallel = 25/100; r_finish = 20/25; r_perf = 1 × 0.8
    expect(r.r_parallel).toBe(0.25);
    expect(r.r_finish).toBe(0.8);
    expect(r.r_perf).toBe(0.8);
    // 0.05·0.25 = 0.0125; 0.05·0.8 = 0.04; total = 0.0125 + 0.04 + 0.8 = 0.8525
    expect(r.instantiation_component).toBeCloseTo(0.0125, 15);
    expect(r.finish_component).toBeCloseTo(0.04, 15);
    expect(r.task_component).toBe(0.8);
    expect(r.total_reward).toBeCloseTo(0.8525, 15);
    expect(r.total_reward).toBe(r.instantiation_component + r.finish_component + r.task_component);
    expect(Object.keys(r).sort()).toEqual(
      ['finish_component', 'instantiation_component', 'lambda1', 'lambda2', 'r_finish', 'r_parallel', 'r_perf', 'task_component', 'total_reward'].sort(),
    );
  });

  it('counts sub-agents and finishes from stages when the counts are absent', () => {
    const { num_subagents: _n, assigned_subtasks: _a, completed_subtasks: _c, ...rest } = SPEC_RECORD;
    const r = computeReward(rest);
    // launched 3 + 2 + 0 = 5 → r_parallel = 5/100; one finished: false → r_finish = 4/5
    expect(r.r_parallel).toBe(0.05);
    expect(r.r_finish).toBe(0.8);
  });
});

describe('r_parallel', () => {
  it('linear: clamp(n / max, 0, 1)', () => {
    expect(rParallel(0)).toBe(0);
    expect(rParallel(25)).toBe(0.25);
    expect(rParallel(100)).toBe(1);
    expect(rParallel(250)).toBe(1);
    expect(rParallel(5, 10)).toBe(0.5);
  });

  it('log: ln(1+n) / ln(1+max), clamped', () => {
    // ln 26 / ln 101 = 3.258096538021482 / 4.61512051684126 = 0.7059613126314263
    expect(rParallel(25, 100, 'log')).toBeCloseTo(0.7059613126314263, 15);
    expect(rParallel(0, 100, 'log')).toBe(0);
    expect(rParallel(100, 100, 'log')).toBe(1);
    expect(rParallel(1000, 100, 'log')).toBe(1);
    const r = computeReward({ num_subagents: 25, r_perf: 0 }, { parallelShape: 'log' });
    expect(r.r_parallel).toBeCloseTo(0.7059613126314263, 15);
  });

  it('max_subagents changes the saturation point', () => {
    expect(computeReward({ num_subagents: 25, r_perf: 0 }, { maxSubagents: 50 }).r_parallel).toBe(0.5);
    expect(computeReward({ num_subagents: 80, r_perf: 0 }, { maxSubagents: 50 }).r_parallel).toBe(1);
  });

  it('rejects bad input', () => {
    expect(messageOf(() => rParallel(-1))).toBe('num_subagents must be a finite number ≥ 0, got -1');
    expect(messageOf(() => rParallel(Number.NaN))).toBe('num_subagents must be a finite number ≥ 0, got NaN');
    expect(messageOf(() => rParallel(3, 0))).toBe('maxSubagents must be a finite number > 0, got 0');
  });
});

describe('r_finish', () => {
  it('completed / assigned when assigned > 0, else 0', () => {
    expect(rFinish(20, 25)).toBe(0.8);
    expect(rFinish(0, 0)).toBe(0);
    expect(rFinish(3, 3)).toBe(1);
    expect(computeReward({ num_subagents: 0, r_perf: 0 }).r_finish).toBe(0);
  });

  it('completed > assigned, negative or non-finite counts are errors', () => {
    expect(messageOf(() => rFinish(5, 4))).toBe('completed_subtasks must be at most assigned_subtasks (4), got 5');
    expect(messageOf(() => rFinish(-1, 4))).toBe('completed_subtasks must be a finite number ≥ 0, got -1');
    expect(messageOf(() => rFinish(1, Number.POSITIVE_INFINITY))).toBe('assigned_subtasks must be a finite number ≥ 0, got Infinity');
    expect(messageOf(() => computeReward({ assigned_subtasks: 2, completed_subtasks: 3, r_perf: 0 }))).toBe(
      'completed_subtasks must be at most assigned_subtasks (2), got 3',
    );
  });
});

describe('r_perf', () => {
  it('given directly: any finite number, unclamped', () => {
    expect(computeReward({ r_perf: 0.8 }).r_perf).toBe(0.8);
    expect(computeReward({ r_perf: -2 }).r_perf).toBe(-2);
    expect(computeReward({ r_perf: 3.5 }).r_perf).toBe(3.5);
  });

  it('success × quality, clamped to [0, 1]', () => {
    expect(computeReward({ success: true }).r_perf).toBe(1);
    expect(computeReward({ success: 1, quality: 0.8 }).r_perf).toBe(0.8);
    expect(computeReward({ success: false, quality: 0.8 }).r_perf).toBe(0);
    expect(computeReward({ success: 0 }).r_perf).toBe(0);
    expect(computeReward({ success: true, quality: 1.5 }).r_perf).toBe(1);
    expect(computeReward({ success: true, quality: -0.5 }).r_perf).toBe(0);
  });

  it('trajectory features: clamp(mean × success, 0, 1)', () => {
    // mean(0.2, 0.9, 0.4) = 1.5 / 3 = 0.5
    expect(computeReward({ success: true, trajectory_features: [0.2, 0.9, 0.4] }).r_perf).toBeCloseTo(0.5, 15);
    expect(computeReward({ success: false, trajectory_features: [0.2, 0.9, 0.4] }).r_perf).toBe(0);
    // mean(2, 3) = 2.5 → 1; mean(−1, 0) = −0.5 → 0
    expect(computeReward({ success: true, trajectory_features: [2, 3] }).r_perf).toBe(1);
    expect(computeReward({ success: true, trajectory_features: [-1, 0] }).r_perf).toBe(0);
    expect(rPerf({ kind: 'features', success: true, features: [0.25, 0.75] })).toBe(0.5);
  });

  it('missing r_perf is an error that says how to give it', () => {
    expect(messageOf(() => computeReward({ num_subagents: 3 }))).toBe(
      'r_perf must be given: r_perf, or success (with optional quality), or trajectory_features with success, got undefined (missing)',
    );
    expect(messageOf(() => rPerf({ kind: 'none' }))).toContain('r_perf must be given');
  });

  it('two ways of giving it is an error', () => {
    expect(messageOf(() => computeReward({ r_perf: 1, success: true }))).toBe('r_perf must be given in one way only, but success is given too, got 1');
  });
});

describe('the training step', () => {
  it('comes from training_step, else 0', () => {
    expect(computeReward({ r_perf: 0, training_step: 2500 }).lambda1).toBeCloseTo(0.075, 15);
    expect(computeReward({ r_perf: 0 }).lambda1).toBe(0.1);
    // after the schedule's end it holds its last value
    expect(computeReward({ r_perf: 0, training_step: 50000 }).lambda2).toBe(0);
  });

  it('config.step overrides training_step', () => {
    const r = computeReward({ ...SPEC_RECORD, training_step: 0 }, { step: 10000 });
    expect([r.lambda1, r.lambda2]).toEqual([0, 0]);
    expect(r.total_reward).toBe(0.8);
  });

  it('λ1 and λ2 may follow different schedules', () => {
    const r = computeReward(SPEC_RECORD, { lambda1: 'constant:0.2', lambda2: { kind: 'step', values: [0.3, 0.1], boundaries: [4000] } });
    expect([r.lambda1, r.lambda2]).toEqual([0.2, 0.1]);
    // 0.2·0.25 + 0.1·0.8 + 0.8 = 0.05 + 0.08 + 0.8 = 0.93
    expect(r.total_reward).toBeCloseTo(0.93, 15);
    const parsed = parseSchedule('constant:0.5');
    expect(computeReward({ r_perf: 0 }, { lambda1: parsed }).lambda1).toBe(0.5);
  });
});

describe('budget (spec §2)', () => {
  it('fail: an episode cut by the budget gets r_perf = 0', () => {
    // cumulative critical steps 6, 16, 17: K = 16 cuts the last stage
    const cut = computeReward(SPEC_RECORD, { budget: 16 });
    expect(cut.r_perf).toBe(0);
    expect(cut.task_component).toBe(0);
    // 0.0125 + 0.04 + 0 = 0.0525
    expect(cut.total_reward).toBeCloseTo(0.0525, 15);
    expect(computeReward(SPEC_RECORD, { budget: 16, onBudget: 'fail' }).r_perf).toBe(0);
  });

  it('an episode within the budget keeps r_perf', () => {
    expect(computeReward(SPEC_RECORD, { budget: 17 }).r_perf).toBe(0.8);
    expect(computeReward(SPEC_RECORD, { budget: 1e9 }).r_perf).toBe(0.8);
  });

  it('truncate: the caller scored what finished, so r_perf stands', () => {
    expect(computeReward(SPEC_RECORD, { budget: 3, onBudget: 'truncate' }).r_perf).toBe(0.8);
  });

  it('a record without stages is never cut', () => {
    expect(computeReward({ r_perf: 0.7 }, { budget: 0 }).r_perf).toBe(0.7);
  });
});

describe('resolveRewardConfig rejects bad options by name', () => {
  const cases: [RewardConfig, string][] = [
    [{ maxSubagents: 0 }, 'maxSubagents must be a finite number > 0, got 0'],
    [{ totalTrainingSteps: -10 }, 'totalTrainingSteps must be a finite number > 0, got -10'],
    [{ parallelShape: 'cubic' as never }, 'parallelShape must be one of "linear", "log", got "cubic"'],
    [{ onBudget: 'skip' as never }, 'onBudget must be one of "fail", "truncate", got "skip"'],
    [{ budget: -1 }, 'budget must be a finite number ≥ 0, got -1'],
    [{ step: Number.NaN }, 'step must be a finite number ≥ 0, got NaN'],
    [{ lambda1: 'linear:0.1:0:0' }, 'lambda1.steps must be a finite number > 0, got 0'],
    [{ lambda2: { kind: 'nope' } as never }, 'lambda2.kind must be one of "constant", "linear", "cosine", "exponential", "step", "piecewise", got "nope"'],
  ];
  it.each(cases)('%j', (config, message) => {
    expect(messageOf(() => resolveRewardConfig(config))).toBe(message);
    expect(messageOf(() => computeReward({ r_perf: 0 }, config))).toBe(message);
  });
});

describe('rewardOfEpisode and combineReward', () => {
  it('rewardOfEpisode equals computeReward on the validated record', () => {
    const cfg = resolveRewardConfig({ parallelShape: 'log' });
    const episode = validateRecord(SPEC_RECORD);
    expect(rewardOfEpisode(episode, cfg)).toEqual(computeReward(SPEC_RECORD, { parallelShape: 'log' }));
    expect(computeReward(episode, cfg)).toEqual(rewardOfEpisode(episode, cfg));
  });

  it('combineReward is the plain arithmetic of spec §3', () => {
    // 0.5·0.2 + 0.25·0.4 + 0.3 = 0.1 + 0.1 + 0.3 = 0.5
    const r = combineReward(0.2, 0.4, 0.3, 0.5, 0.25);
    expect(r).toEqual({
      total_reward: 0.5,
      r_parallel: 0.2,
      r_finish: 0.4,
      r_perf: 0.3,
      lambda1: 0.5,
      lambda2: 0.25,
      instantiation_component: 0.1,
      finish_component: 0.1,
      task_component: 0.3,
    });
  });
});
