import { describe, expect, it } from 'vitest';
import { ParlInputError, runVerdict, speedupOverSerial, spreadOf, summarizeSweepPoint, type SweepRunNumbers } from '../src/index.js';

const run = (over: Partial<SweepRunNumbers>): SweepRunNumbers => ({
  final_r_perf: 0.9,
  final_critical_steps: 16,
  final_mean_width: 15,
  final_finish_rate: 0.98,
  serial_r_perf: 0.87,
  serial_critical_steps: 80,
  ...over,
});

describe('sweep statistics', () => {
  it('speed-up is serial critical steps over the policy\'s, and rejects what cannot divide', () => {
    expect(speedupOverSerial(80, 16)).toBe(5);
    expect(() => speedupOverSerial(80, 0)).toThrow(ParlInputError);
    expect(() => speedupOverSerial(Number.NaN, 16)).toThrow(/serial_critical_steps/);
  });

  it('gives the verdicts of docs/simulator.md: width ≤ 1.5 collapsed, finish rate < 0.5 spurious', () => {
    expect(runVerdict(run({ final_mean_width: 0, final_finish_rate: 0 }))).toBe('collapsed');
    expect(runVerdict(run({ final_mean_width: 1.5 }))).toBe('collapsed');
    expect(runVerdict(run({ final_mean_width: 100, final_finish_rate: 0.15 }))).toBe('spurious');
    expect(runVerdict(run({ final_mean_width: 15.5, final_finish_rate: 0.5 }))).toBe('parallel');
    expect(runVerdict(run({ final_mean_width: 3 }), { maxSerialWidth: 4, minFinishRate: 0.5 })).toBe('collapsed');
    // No sub-agent launched: no finish rate, and the run is collapsed, never spurious.
    expect(runVerdict(run({ final_mean_width: 0, final_finish_rate: null }))).toBe('collapsed');
  });

  it('summarises the finish rate over the runs that launched sub-agents only; none when no run did', () => {
    expect(summarizeSweepPoint([run({ final_finish_rate: 0.9 }), run({ final_mean_width: 0, final_finish_rate: null })]).finish_rate).toEqual({ mean: 0.9, min: 0.9, max: 0.9, sd: 0 });
    expect(summarizeSweepPoint([run({ final_mean_width: 0, final_finish_rate: null })]).finish_rate).toBeNull();
  });

  it('spreads are mean, range and sample standard deviation', () => {
    expect(spreadOf([2])).toEqual({ mean: 2, min: 2, max: 2, sd: 0 });
    const s = spreadOf([1, 2, 3, 4]);
    expect(s.mean).toBe(2.5);
    expect([s.min, s.max]).toEqual([1, 4]);
    expect(s.sd).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(() => spreadOf([])).toThrow(ParlInputError);
  });

  it('summarises a grid point over seeds with the majority verdict, ties going to the failure', () => {
    const p = summarizeSweepPoint([run({}), run({ final_critical_steps: 20 }), run({ final_mean_width: 0 })]);
    expect(p.runs).toBe(3);
    expect(p.verdicts).toEqual({ collapsed: 1, spurious: 0, parallel: 2 });
    expect(p.verdict).toBe('parallel');
    expect(p.speedup.min).toBe(4);
    expect(p.speedup.max).toBe(5);
    expect(summarizeSweepPoint([run({}), run({ final_mean_width: 0 })]).verdict).toBe('collapsed');
    expect(() => summarizeSweepPoint([])).toThrow(/runs/);
  });
});
