import { criticalSteps, ParlInputError, resolveRewardConfig, validateRecord } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { MODE_DIRECT, MODE_LAUNCH, episodeSeeds, resolveEnvConfig, runEpisodes, scriptedPolicy, type ActionBatch, type Policy, type SwarmBatch } from '../src/index.js';
import { evaluate } from '../src/internal/evaluation/evaluation.js';
import { episodeMeans, scoreEpisodes } from '../src/internal/evaluation/metrics.js';
import { randomPolicy } from './random-policy.js';

const seeds = (n: number, seed = 5) => Array.from({ length: n }, (_, i) => episodeSeeds(seed, i));
const serial = scriptedPolicy('serial');

/** Launch one sub-agent per ready subtask on the first turn, then reply (no tool call). */
const launchOnceThenReply: Policy = {
  kind: 'scripted',
  name: 'launch-once',
  act(env: SwarmBatch, list: Int32Array, length: number, _greedy: boolean, out: ActionBatch): void {
    for (let r = 0; r < length; r++) {
      const b = list[r] as number;
      const first = env.stages[b] === 0;
      out.mode[r] = first ? MODE_LAUNCH : MODE_DIRECT;
      const half = Math.max(1, Math.floor((env.readyCount[b] as number) / 2));
      out.width[r] = half;
      out.handout[r] = half;
    }
  },
};

describe('delegate-only: a turn without the direct tool is a reply', () => {
  it('answers at once when it never repeats: one stage, `answered`, scored on what it has (memory only)', () => {
    const env = resolveEnvConfig({ directAction: false, repeatProbability: 0, recallAccuracy: 0 });
    const records = runEpisodes(env, serial, seeds(32), { greedy: true });
    for (const r of records) {
      expect(r.end_reason).toBe('answered');
      expect(r.stages).toEqual([{ main_steps: env.replySteps, sub_steps: [] }]);
      expect(r.r_perf).toBe(0);
      expect(r.num_subagents).toBe(0);
      expect(r.repeats).toBe(0);
    }
  });

  it('answers every subtask not yet done from memory, correct with recallAccuracy (1 with a clean context: r_perf 1)', () => {
    const env = resolveEnvConfig({ directAction: false, repeatProbability: 0, recallAccuracy: 1, contextDegradation: 0 });
    for (const r of runEpisodes(env, serial, seeds(16), { greedy: true })) expect(r.r_perf).toBe(1);
    const partial = resolveEnvConfig({ directAction: false, repeatProbability: 0, recallAccuracy: 0.5, contextDegradation: 0 });
    const mean = runEpisodes(partial, serial, seeds(400), { greedy: true }).reduce((a, r) => a + r.r_perf, 0) / 400;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });

  it('keeps the results a launch brought back when it answers after it (scored on what it has)', () => {
    const env = resolveEnvConfig({ directAction: false, repeatProbability: 0, recallAccuracy: 0 });
    const records = runEpisodes(env, launchOnceThenReply, seeds(32), { greedy: true });
    for (const r of records) {
      expect(r.end_reason).toBe('answered');
      expect(r.stages).toHaveLength(2);
      // Nothing from memory: r_perf is exactly the launch's correct results.
      expect(r.r_perf).toBe(r.solved_correctly / r.subtasks);
      expect(r.solved_correctly).toBeLessThan(r.subtasks);
    }
    expect(records.some((r) => r.r_perf > 0)).toBe(true);
  });

  it('repeats itself with repeatProbability: wasted stages that fill the context until it is cut (`context`)', () => {
    const env = resolveEnvConfig({ directAction: false, repeatProbability: 1, repeatContext: 20, contextSize: 128 });
    const records = runEpisodes(env, serial, seeds(16), { greedy: true });
    for (const r of records) {
      expect(r.end_reason).toBe('context');
      // 7 repetitions of 20 context units reach 128; nothing is done.
      expect(r.repeats).toBe(7);
      expect(r.stages).toHaveLength(7);
      expect(r.r_perf).toBe(0);
      expect(r.solved_correctly).toBe(0);
    }
  });

  it('a reply that crosses the budget ends the episode there (`budget`), where core cuts it', () => {
    const env = resolveEnvConfig({ directAction: false, repeatProbability: 1, repeatContext: 0, replySteps: 10, budget: 25 });
    for (const r of runEpisodes(env, serial, seeds(8), { greedy: true })) {
      expect(r.end_reason).toBe('budget');
      expect(r.stages).toHaveLength(3);
      expect(criticalSteps(r.stages).critical_steps).toBe(30);
      expect(validateRecord(r).stages).toHaveLength(3);
    }
  });

  it('with the direct tool (the default) the reply settings change nothing: the same records, byte for byte', () => {
    const plain = resolveEnvConfig({});
    const other = resolveEnvConfig({ repeatProbability: 0.9, recallAccuracy: 0.9, replySteps: 7, repeatContext: 3 });
    for (const policy of [serial, randomPolicy, scriptedPolicy('balanced')]) {
      const a = runEpisodes(plain, policy, seeds(48), { greedy: false });
      const b = runEpisodes(other, policy, seeds(48), { greedy: false });
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      expect(a.every((r) => !('repeats' in r))).toBe(true);
    }
  });

  it('rejects a directAction that is not a boolean and reply settings out of range, naming the field', () => {
    expect(() => resolveEnvConfig({ directAction: 'no' })).toThrow(ParlInputError);
    expect(() => resolveEnvConfig({ directAction: 'no' })).toThrow(/env\.directAction must be true or false, got "no"/);
    expect(() => resolveEnvConfig({ repeatProbability: 1.5 })).toThrow(/env\.repeatProbability/);
    expect(() => resolveEnvConfig({ recallAccuracy: -0.1 })).toThrow(/env\.recallAccuracy/);
    expect(() => resolveEnvConfig({ replySteps: 0 })).toThrow(/env\.replySteps/);
  });
});

describe('assign rate, truncated share and repeat share', () => {
  it('count the episodes that launched, that were cut (budget, steps, context) and that repeated themselves', () => {
    const reward = resolveRewardConfig({});
    // Serial in the default world: never launches; on wide tasks some episodes run out of orchestrator steps.
    const serialMeans = episodeMeans(scoreEpisodes(runEpisodes(resolveEnvConfig({}), serial, seeds(200), { greedy: true }), reward));
    expect(serialMeans.assign_rate).toBe(0);
    const records = runEpisodes(resolveEnvConfig({}), serial, seeds(200), { greedy: true });
    const cut = records.filter((r) => r.end_reason === 'max_steps' || r.end_reason === 'context' || r.end_reason === 'budget').length;
    expect(cut).toBeGreaterThan(0);
    expect(serialMeans.truncated_share).toBe(cut / 200);
    expect(serialMeans.repeat_share).toBe(0);

    const balanced = episodeMeans(scoreEpisodes(runEpisodes(resolveEnvConfig({}), scriptedPolicy('balanced'), seeds(50), { greedy: true }), reward));
    expect(balanced.assign_rate).toBe(1);

    const looping = runEpisodes(resolveEnvConfig({ directAction: false, repeatProbability: 0.5 }), randomPolicy, seeds(200), { greedy: false });
    const m = episodeMeans(scoreEpisodes(looping, reward));
    expect(m.repeat_share).toBe(looping.filter((r) => (r.repeats ?? 0) > 0).length / 200);
    expect(m.assign_rate).toBe(looping.filter((r) => r.num_subagents > 0).length / 200);
    expect(m.repeat_share).toBeGreaterThan(0);
    expect(m.assign_rate).toBeGreaterThan(0);
    expect(m.assign_rate).toBeLessThan(1);
  });

  it("are in the held-out evaluation's `final`; the serial baseline keeps the direct tool a delegate-only orchestrator lost", () => {
    const env = resolveEnvConfig({ directAction: false, budget: 120 });
    const ev = evaluate(serial, env, 3, 32, [0.5]);
    // The trained policy here is `serial`: without the direct tool every turn is a reply.
    expect(ev.final.assign_rate).toBe(0);
    expect(ev.final.r_perf).toBeLessThan(0.5);
    const withTool = evaluate(serial, { ...env, directAction: true }, 3, 32, [0.5]);
    expect(ev.baseline_serial).toEqual(withTool.baseline_serial);
    expect(ev.baseline_serial.r_perf).toBeGreaterThan(0.8);
    expect(typeof ev.final.truncated_share).toBe('number');
  });
});
