import type { RunSummary, StepMetrics } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { buildRunReport } from '../src/internal/report/build-report.js';
import { latencyChart, runCharts } from '../src/internal/report/run-charts.js';
import { compareCurves, runVerdict } from '../src/internal/report/verdict.js';

const baseline = (policy: string, latency: (number | null)[], same = false, subagents = 10) => ({
  policy,
  r_perf: 0.88,
  critical_steps: 30,
  total_steps: 120,
  subagents,
  mean_width: subagents > 0 ? 6 : 0,
  finish_rate: subagents > 0 ? 0.97 : null,
  success_rate: 1,
  latency,
  same_as_trained: same,
});

const summary: RunSummary = {
  preset: 'parl-mixed',
  seed: 1,
  steps: 3,
  final: { r_perf: 0.89, critical_steps: 26.4, mean_width: 7.1, finish_rate: 0.97, success_rate: 0.99, total_steps: 98, subagents: 16.75 },
  baseline_serial: { r_perf: 0.76, critical_steps: 54.7, total_steps: 54.7 },
  latency_to_target: [
    { target: 0.3, policy: 21, serial: 52 },
    { target: 0.5, policy: 27, serial: 66 },
  ],
  baselines: [baseline('serial', [52, 66], false, 0), baseline('max-parallel', [27, 30]), baseline('balanced', [21, 27], true)],
};
const metrics: StepMetrics[] = [0, 1, 2].map((step) => ({
  step,
  lambda1: 0,
  lambda2: 0,
  total_reward: 0.8,
  r_parallel: 0,
  r_finish: 0,
  r_perf: 0.8,
  critical_steps: 30,
  mean_width: step === 0 ? 0 : 5,
  finish_rate: 1,
  success_rate: 1,
  total_steps: 60 + step,
  subagents: 2 * step,
}));
const run = { dir: 'run', config: {}, metrics, metricsCount: 3, summary };

describe('the report verdict', () => {
  it('compares latency curves target by target, null counting as never', () => {
    expect(compareCurves([1, 2], [1, 2])).toBe('identical');
    expect(compareCurves([1, 2], [1, 3])).toBe('dominates');
    expect(compareCurves([1, null], [1, 3])).toBe('above');
    expect(compareCurves([1, 4], [2, 3])).toBe('mixed');
  });

  it('says in one line the speed-up, r_perf against serial, each baseline and the cost', () => {
    expect(runVerdict(summary)).toBe(
      'Learned: 2.07× fewer critical steps than always-serial (26.4 vs 54.7) at r_perf 0.89, at or above serial\'s 0.76; latency to target: faster than max-parallel at every target reached, identical to balanced; cost: 16.8 sub-agents and 98 total steps per episode (serial 54.7).',
    );
    const html = buildRunReport(run);
    expect(html.indexOf('Learned: 2.07×')).toBeLessThan(html.indexOf('<canvas'));
  });

  it('charts work and sub-agents, draws every baseline and says which coincides', () => {
    const charts = runCharts(run);
    expect(charts.map((c) => c.title)).toContain('Work and sub-agents per episode over training');
    const latency = latencyChart(run);
    const labels = (latency.config as { data: { datasets: { label: string }[] } }).data.datasets.map((d) => d.label);
    expect(labels).toEqual(['trained policy', 'serial', 'max-parallel', 'balanced (coincides with the trained policy)']);
    expect(latency.caption).toContain('balanced coincides');
  });

  it('shows — for quantities that do not apply', () => {
    const html = buildRunReport(run);
    // serial launches no sub-agent: no width, no finish rate.
    expect(html).toContain('<td>serial</td><td class="num">0.88</td><td class="num">30</td><td class="num">120</td><td class="num">0</td><td class="num">—</td><td class="num">—</td>');
    expect(html).toContain('yes — identical');
    const idle = buildRunReport({ ...run, summary: { ...summary, final: { ...summary.final, subagents: 0, mean_width: 0 } } });
    expect(idle).toContain('<td>finish rate (sub-agents that finished)</td><td class="num">—</td>');
  });
});
