import { ParlInputError } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { SCRIPTED_POLICY_NAMES, episodeSeeds, resolveEnvConfig, runEpisodes, scriptedPolicy } from '../src/index.js';

const env = resolveEnvConfig({ family: 'mixed', maxSubagentsPerGroup: 50 });
const seeds = Array.from({ length: 40 }, (_, i) => episodeSeeds(21, i));

describe('scripted policies', () => {
  it('serial never launches a sub-agent', () => {
    for (const r of runEpisodes(env, scriptedPolicy('serial'), seeds, { greedy: true })) {
      expect(r.num_subagents).toBe(0);
      expect(r.stages.every((s) => (s.sub_steps ?? []).length === 0)).toBe(true);
    }
  });

  it('max-parallel launches the largest group allowed at every stage', () => {
    for (const r of runEpisodes(env, scriptedPolicy('max-parallel'), seeds, { greedy: true })) {
      expect(r.stages.every((s) => (s.sub_steps ?? []).length === 50)).toBe(true);
    }
  });

  it('balanced launches one sub-agent per ready subtask, so none is idle', () => {
    for (const r of runEpisodes(resolveEnvConfig({ family: 'wide' }), scriptedPolicy('balanced'), seeds, { greedy: true })) {
      const first = (r.stages[0]?.sub_steps ?? []) as { finished: boolean; steps: number }[];
      expect(first).toHaveLength(r.subtasks);
      // Unfinished sub-agents here are failures, which take their steps; idle ones would take 1.
      for (const run of first) if (!run.finished) expect(run.steps).toBeGreaterThan(1);
    }
  });

  it('rejects an unknown name, listing the valid ones', () => {
    expect([...SCRIPTED_POLICY_NAMES]).toEqual(['serial', 'max-parallel', 'balanced']);
    expect(() => scriptedPolicy('greedy')).toThrow(ParlInputError);
    expect(() => scriptedPolicy('greedy')).toThrow(/policy must be one of "serial", "max-parallel", "balanced", got "greedy"/);
  });
});
