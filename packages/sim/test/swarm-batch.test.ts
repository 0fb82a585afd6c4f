import { applyBudget, computeReward, criticalSteps, validateRecord, validateStages } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { SwarmBatch, episodeSeeds, resolveEnvConfig, runEpisodes, scriptedPolicy, type EnvConfig, type Policy } from '../src/index.js';
import { allocateActionBatch } from '../src/internal/engine/action-batch.js';
import { randomPolicy } from './random-policy.js';

const POLICIES: Policy[] = [scriptedPolicy('serial'), scriptedPolicy('max-parallel'), scriptedPolicy('balanced'), randomPolicy];
const seeds = (n: number, seed = 3) => Array.from({ length: n }, (_, i) => episodeSeeds(seed, i));

function runEngine(env: EnvConfig, policy: Policy, n: number): SwarmBatch {
  const engine = new SwarmBatch(env, n, { recordStages: true });
  const actions = allocateActionBatch(n);
  seeds(n).forEach((s, b) => engine.reset(b, s.taskSeed, s.episodeSeed));
  for (;;) {
    const { list, length } = engine.activeList(n);
    if (length === 0) break;
    policy.act(engine, list, length, false, actions);
    engine.step(list, length, actions);
  }
  return engine;
}

describe('SwarmBatch invariants', () => {
  for (const family of ['wide', 'deep', 'mixed'] as const) {
    for (const policy of POLICIES) {
      it(`${family} / ${policy.name}: no subtask is solved twice and the counts agree`, () => {
        const env = resolveEnvConfig({ family });
        const engine = runEngine(env, policy, 64);
        const S = engine.maxSubtasks;
        for (let b = 0; b < 64; b++) {
          const n = engine.subtasks[b] as number;
          let solved = 0;
          let correct = 0;
          for (let i = 0; i < n; i++) {
            expect(engine.solvedTimes[b * S + i]).toBeLessThanOrEqual(1);
            solved += engine.solvedTimes[b * S + i] as number;
            correct += engine.correct[b * S + i] as number;
          }
          expect(solved).toBe(engine.doneCount[b]);
          expect(correct).toBe(engine.correctCount[b]);
          if (engine.endReason[b] === 1) expect(solved).toBe(n);
        }
      });

      it(`${family} / ${policy.name}: the record's critical steps equal the simulator clock`, () => {
        const env = resolveEnvConfig({ family });
        const records = runEpisodes(env, policy, seeds(64), { greedy: false });
        const engine = runEngine(env, policy, 64);
        records.forEach((record, b) => {
          expect(criticalSteps(record.stages).critical_steps).toBe(engine.clock[b]);
        });
      });
    }
  }

  it('deep tasks release a subtask only after its dependencies are done', () => {
    const env = resolveEnvConfig({ family: 'deep' });
    const engine = new SwarmBatch(env, 16, { recordStages: false });
    seeds(16).forEach((s, b) => engine.reset(b, s.taskSeed, s.episodeSeed));
    const actions = allocateActionBatch(16);
    const serial = scriptedPolicy('serial');
    const S = engine.maxSubtasks;
    for (;;) {
      const { list, length } = engine.activeList(16);
      if (length === 0) break;
      for (let r = 0; r < length; r++) {
        const b = list[r] as number;
        for (let i = 0; i < (engine.subtasks[b] as number); i++) {
          if (engine.state[b * S + i] !== 1) continue;
          const parent = engine.parent[b * S + i] as number;
          if (parent >= 0) expect(engine.state[b * S + parent]).toBe(2);
          if (i === engine.aggregate[b]) expect(engine.unmet[b * S + i]).toBe(0);
        }
      }
      serial.act(engine, list, length, false, actions);
      engine.step(list, length, actions);
    }
  });

  it('reproduces the same episodes from the same seed, and different ones from another', () => {
    const env = resolveEnvConfig({ family: 'mixed' });
    const a = runEpisodes(env, randomPolicy, seeds(50, 9), { greedy: false });
    const b = runEpisodes(env, randomPolicy, seeds(50, 9), { greedy: false });
    const c = runEpisodes(env, randomPolicy, seeds(50, 10), { greedy: false });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
  });

  it('gives the K rollouts of a task (one task seed, K episode seeds) the same task and their own episodes', () => {
    const env = resolveEnvConfig({ family: 'mixed' });
    const K = 4;
    const engine = new SwarmBatch(env, K, { recordStages: false });
    for (let r = 0; r < K; r++) engine.reset(r, 77, 1000 + r);
    const S = engine.maxSubtasks;
    for (let r = 1; r < K; r++) {
      expect(engine.subtasks[r]).toBe(engine.subtasks[0]);
      expect(Array.from(engine.cost.subarray(r * S, (r + 1) * S))).toEqual(Array.from(engine.cost.subarray(0, S)));
      expect(Array.from(engine.parent.subarray(r * S, (r + 1) * S))).toEqual(Array.from(engine.parent.subarray(0, S)));
    }
    const actions = allocateActionBatch(K);
    for (;;) {
      const { list, length } = engine.activeList(K);
      if (length === 0) break;
      randomPolicy.act(engine, list, length, false, actions);
      engine.step(list, length, actions);
    }
    expect(new Set(Array.from(engine.clock)).size).toBeGreaterThan(1);
  });

  it('gives the same records batched and one episode at a time', () => {
    const env = resolveEnvConfig({ family: 'mixed' });
    for (const policy of POLICIES) {
      const one = runEpisodes(env, policy, seeds(40), { greedy: false, batchSize: 1 });
      const many = runEpisodes(env, policy, seeds(40), { greedy: false, batchSize: 64 });
      expect(many).toEqual(one);
    }
  });

  it('writes records that core validates, with sub-agent counts core agrees with', () => {
    const env = resolveEnvConfig({ family: 'wide' });
    for (const record of runEpisodes(env, randomPolicy, seeds(50), { greedy: false })) {
      const { stages, assigned_subtasks, completed_subtasks, num_subagents, ...rest } = record;
      const counted = validateRecord({ stages, r_perf: rest.r_perf });
      expect(counted.numSubagents).toBe(num_subagents);
      expect(counted.assigned).toBe(assigned_subtasks);
      expect(counted.completed).toBe(completed_subtasks);
      expect(record.end_reason).not.toBe('budget');
      expect(record.r_perf).toBeCloseTo(record.solved_correctly / record.subtasks, 12);
    }
  });

  it('leaves idle sub-agents unfinished when k > m', () => {
    const env = resolveEnvConfig({ family: 'wide' });
    const records = runEpisodes(env, scriptedPolicy('max-parallel'), seeds(20), { greedy: true });
    for (const record of records) {
      const first = record.stages[0];
      const runs = first?.sub_steps as { steps: number; finished: boolean }[];
      expect(runs).toHaveLength(100);
      const working = Math.min(record.subtasks, 100);
      expect(runs.slice(working).every((r) => !r.finished)).toBe(true);
    }
  });

  it('stops an episode at the stage that crosses the budget, where core cuts it; core\'s fail rule makes its r_perf 0', () => {
    const env = resolveEnvConfig({ family: 'wide', budget: 40 });
    const records = runEpisodes(env, scriptedPolicy('serial'), seeds(40), { greedy: true });
    let cut = 0;
    for (const record of records) {
      const within = applyBudget(validateStages(record.stages), 40).within_budget;
      expect(record.end_reason === 'budget').toBe(!within);
      const reward = computeReward(record, { budget: 40, onBudget: 'fail', step: 0 });
      if (!within) {
        cut++;
        expect(reward.r_perf).toBe(0);
      } else {
        expect(reward.r_perf).toBe(record.r_perf);
      }
      expect(computeReward(record, { budget: 40, onBudget: 'truncate', step: 0 }).r_perf).toBe(record.r_perf);
    }
    expect(cut).toBeGreaterThan(30);
  });

  it('under truncate scores only what finished before the cut', () => {
    const env = resolveEnvConfig({ family: 'wide', budget: 40, onBudget: 'truncate' });
    const records = runEpisodes(env, scriptedPolicy('serial'), seeds(20), { greedy: true });
    for (const record of records.filter((r) => r.end_reason === 'budget')) {
      expect(record.r_perf).toBeGreaterThan(0);
      expect(record.r_perf).toBeLessThan(record.solved_correctly / record.subtasks + 1e-12);
    }
  });

  it('makes serial slower than balanced by the measured margin on wide tasks', () => {
    const env = resolveEnvConfig({ family: 'wide' });
    const cs = (p: Policy) =>
      runEpisodes(env, p, seeds(200), { greedy: true }).reduce((a, r) => a + criticalSteps(r.stages).critical_steps, 0) / 200;
    expect(cs(scriptedPolicy('serial'))).toBeGreaterThan(3 * cs(scriptedPolicy('balanced')));
  });
});

describe('resolveEnvConfig', () => {
  it('rejects unknown keys and bad values, naming the field', () => {
    expect(() => resolveEnvConfig({ famly: 'deep' })).toThrow(/env\.famly must be a known setting of env \(did you mean env\.family\?/);
    expect(() => resolveEnvConfig({ subagentAccuracy: 1.5 })).toThrow(/env\.subagentAccuracy must be a probability between 0 and 1, got 1\.5/);
    expect(() => resolveEnvConfig({ wideSubtasks: [10, 5] })).toThrow(/env\.wideSubtasks\[1\]/);
    expect(() => resolveEnvConfig({ family: 'tall' })).toThrow(/env\.family must be one of/);
    expect(() => resolveEnvConfig({ budget: -1 })).toThrow(/env\.budget must be a finite number ≥ 0, got -1/);
  });

  it('merges over the defaults', () => {
    const env = resolveEnvConfig({ family: 'deep', budget: 80 });
    expect(env.family).toBe('deep');
    expect(env.budget).toBe(80);
    expect(env.costMean).toBe(4);
  });
});
