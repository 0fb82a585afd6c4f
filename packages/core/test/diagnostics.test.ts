import { describe, expect, it } from 'vitest';
import { DEFAULT_DIAGNOSTIC_THRESHOLDS, ParlInputError, diagnose, validateStages } from '../src/index.js';
import { messageOf } from './support.js';

// serial: four stages, each one main step and one sub-agent of 4 steps
const SERIAL = validateStages(Array.from({ length: 4 }, () => ({ main_steps: 1, sub_steps: [4] })));
// wide: one group of four, then a direct call
const WIDE = validateStages([{ main_steps: 1, sub_steps: [4, 5, 3, 4] }, { main_steps: 1 }]);
// spurious: ten sub-agents of 2 steps, six of them finish nothing; then a direct call
const SPURIOUS = validateStages([
  { main_steps: 1, sub_steps: Array.from({ length: 10 }, (_, i) => ({ steps: 2, finished: i < 4 })) },
  { main_steps: 1 },
]);

describe('diagnose', () => {
  it('indicators over several episodes', () => {
    const d = diagnose([SERIAL, WIDE, SPURIOUS]);
    // stages 4 + 2 + 2 = 8; width ≤ 1 in 4 + 1 + 1 = 6 → 6/8 = 0.75
    // groups: 4 of width 1, one of 4, one of 10 → 18 sub-agents over 6 groups → mean width 3
    // idle: 6 of 18 = 1/3
    // critical: 4·(1+4) = 20, (1+5)+1 = 7, (1+2)+1 = 4 → 31; total: 20, 1+16+1 = 18, 1+20+1 = 22 → 60
    expect(d).toEqual({
      episodes: 3,
      stages: 8,
      subagents: 18,
      serial_stage_share: 0.75,
      mean_width: 3,
      idle_subagent_share: 6 / 18,
      parallelism: 60 / 31,
      serial_collapse: false,
      spurious_parallelism: false,
    });
  });

  it('flags serial collapse', () => {
    const d = diagnose([SERIAL]);
    expect(d.serial_stage_share).toBe(1);
    expect(d.parallelism).toBe(1);
    expect(d.serial_collapse).toBe(true);
    expect(d.spurious_parallelism).toBe(false);
  });

  it('flags spurious parallelism', () => {
    const d = diagnose([SPURIOUS]);
    // 6 of 10 idle = 0.6 ≥ 0.5; serial share 1/2 < 0.8
    expect(d.idle_subagent_share).toBe(0.6);
    expect(d.spurious_parallelism).toBe(true);
    expect(d.serial_collapse).toBe(false);
  });

  it('thresholds move the findings; reaching a threshold counts', () => {
    expect(DEFAULT_DIAGNOSTIC_THRESHOLDS).toEqual({ serialStageShare: 0.8, idleSubagentShare: 0.5 });
    const d = diagnose([SERIAL, WIDE, SPURIOUS], { serialStageShare: 0.75, idleSubagentShare: 0.3 });
    expect([d.serial_collapse, d.spurious_parallelism]).toEqual([true, true]);
    const e = diagnose([SPURIOUS], { idleSubagentShare: 0.61 });
    expect(e.spurious_parallelism).toBe(false);
  });

  it('no episodes or no stages: nothing is flagged', () => {
    expect(diagnose([])).toEqual({
      episodes: 0,
      stages: 0,
      subagents: 0,
      serial_stage_share: 0,
      mean_width: 0,
      idle_subagent_share: 0,
      parallelism: 1,
      serial_collapse: false,
      spurious_parallelism: false,
    });
    expect(diagnose([[]], { serialStageShare: 0 }).serial_collapse).toBe(false);
  });

  it('rejects thresholds outside [0, 1]', () => {
    expect(messageOf(() => diagnose([SERIAL], { serialStageShare: 1.5 }))).toBe('serialStageShare must be a share between 0 and 1, got 1.5');
    expect(messageOf(() => diagnose([SERIAL], { idleSubagentShare: Number.NaN }))).toBe('idleSubagentShare must be a share between 0 and 1, got NaN');
    expect(messageOf(() => diagnose([SERIAL], { idleSubagentShare: -0.1 }))).toBe('idleSubagentShare must be a share between 0 and 1, got -0.1');
  });
});
