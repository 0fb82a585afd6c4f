/**
 * The dashboard's per-episode numbers come from core's rules: sub-agents launched and the finish
 * rate by `subagentCounts` (plain and flagged entries mixed, none launched → no finish rate).
 */
import { subagentCounts } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { episodePoint } from '../src/dashboard/live-stats.js';
import { LiveStats } from '../src/internal/live-stats.js';

describe('episodePoint', () => {
  it('counts mixed plain and flagged sub-agents as core does (a plain entry is a finished one)', () => {
    const record = { stages: [{ main_steps: 1, sub_steps: [2, { steps: 3, finished: false }, { steps: 1, finished: true }] }] };
    const p = episodePoint(record);
    expect(p.num_subagents).toBe(3);
    expect(p.finish_rate).toBe(subagentCounts(record).finish_rate);
    expect(p.finish_rate).toBeCloseTo(2 / 3, 12);
  });

  it('gives no finish rate for an episode that launched no sub-agent, and leaves it out of the mean', () => {
    const none = episodePoint({ stages: [{ main_steps: 3 }] });
    expect(none.num_subagents).toBe(0);
    expect(none.finish_rate).toBeUndefined();
    const stats = new LiveStats(() => 0);
    stats.add(none);
    stats.add(episodePoint({ num_subagents: 4, assigned_subtasks: 4, completed_subtasks: 1, r_perf: 1 }));
    expect(stats.snapshot().total.finish_rate).toBe(0.25);
  });
});
