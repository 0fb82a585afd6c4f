import type { StepMetrics } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { trainClosingLine } from '../src/internal/commands/train.js';
import { assignChart } from '../src/internal/report/run-charts.js';
import type { RunData } from '../src/internal/report/run-folder.js';
import { trainingStory } from '../src/internal/report/training-story.js';

/** Metrics lines with the given assign rates, λ1 annealing from 0.3 to 0 by `annealAt` (never when null). */
function metrics(assign: readonly number[], truncated = 0, annealAt: number | null = assign.length / 2, repeat = 0): StepMetrics[] {
  return assign.map((a, step) => {
    const lambda = annealAt === null ? 0.3 : Math.max(0, 0.3 * (1 - step / annealAt));
    return {
      step,
      lambda1: lambda,
      lambda2: lambda,
      total_reward: 0.5,
      r_parallel: 0.1,
      r_finish: 0.5,
      r_perf: 0.5,
      critical_steps: 20,
      mean_width: a > 0 ? 10 : 0,
      finish_rate: 0.9,
      success_rate: 0.5,
      assign_rate: a,
      truncated_share: truncated,
      repeat_share: repeat,
    };
  });
}

const ramp = (n: number, from: number, to: number) => Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1));

describe('trainingStory: what happened to delegation over training, and why', () => {
  it('learned: the assign rate from its first step to the last tenth, and the annealed λ as the reason', () => {
    const rising = trainingStory(metrics([0.38, ...ramp(99, 0.4, 1)].map((x, i) => (i > 80 ? 1 : x))), true);
    expect(rising).toMatch(/^delegation was learned: the assign rate went from 0\.38 \(first step\) to 1 \(last tenth\), /);
    // parl's curve: the first launches fail, the rate dips, then λ1 pulls it up.
    const dipping = [0.38, 0.2, ...Array.from({ length: 18 }, () => 0.02), ...ramp(80, 0.02, 1)].map((x, i) => (i > 80 ? 1 : x));
    expect(trainingStory(metrics(dipping), true)).toBe(
      "delegation was learned: the assign rate went from 0.38 (first step) down to 0.02 (around step 2) and up to 1 (last tenth), 0 % of the last tenth's rollouts truncated, because λ1 paid for launching while the policy explored and, once λ1 and λ2 had annealed to 0, launching still won on r_perf alone",
    );
  });

  it('unlearned: a fall of at least 0.4 from the peak, with truncation and repetition without the direct tool', () => {
    const assign = [...ramp(40, 0.8, 0.95), ...ramp(60, 0.95, 0.1)].map((x, i) => (i >= 90 ? 0.1 : x));
    const story = trainingStory(metrics(assign, 0.23, 50, 0.24), false);
    expect(story).toMatch(/^delegation was unlearned: the assign rate rose to 0\.9\d+ \(around step \d+\) and fell to 0\.1 \(last tenth\), 23 % of the last tenth's rollouts truncated and 24 % repeating themselves, because without the direct tool/);
  });

  it('never learned, and λ held to the end named as the reason whatever else happened', () => {
    expect(trainingStory(metrics(ramp(100, 0.05, 0.01), 0.2, 1), true)).toMatch(/^delegation was never learned: the assign rate never rose above 0\.0\d+ and ended at 0\.01\d*, 20 % /);
    expect(trainingStory(metrics(ramp(100, 0.4, 1), 0, null), true)).toMatch(
      /because λ1 = 0\.3 and λ2 = 0\.3 still paid for launching and for finished sub-agents at the last step \(never annealed\)/,
    );
  });

  it('is null for metrics without assign rates (run folders from before they were recorded)', () => {
    const old = metrics([0.5, 0.5]).map(({ assign_rate: _a, truncated_share: _t, repeat_share: _r, ...m }) => m);
    expect(trainingStory(old, true)).toBeNull();
    expect(trainingStory([], true)).toBeNull();
  });

  it("ends parl train's closing line, after the verdict and the numbers", () => {
    const summary = {
      preset: 'delegate-only',
      seed: 1,
      steps: 100,
      final: { r_perf: 0.9, critical_steps: 16, mean_width: 15, finish_rate: 0.97, success_rate: 0.9 },
      baseline_serial: { r_perf: 0.87, critical_steps: 80 },
      latency_to_target: [],
    };
    const story = trainingStory(metrics(ramp(100, 0.05, 1)), false);
    expect(trainClosingLine(summary, story)).toMatch(/^parallel: groups of 15 sub-agents, finish rate 0\.97; final r_perf 0\.9 in 16 critical steps \(serial baseline: 0\.87 in 80\); delegation was learned: /);
    expect(trainClosingLine(summary)).not.toMatch(/delegation/);
  });
});

describe("the training report's assign-rate chart", () => {
  const run = (m: StepMetrics[]): RunData => ({ dir: 'r', config: {}, metrics: m, metricsCount: m.length, summary: {} as RunData['summary'] }) as RunData;

  it('draws the assign rate and the truncated share per step, and the repeat share only when there is one', () => {
    const chart = assignChart(run(metrics([0.2, 0.6, 1], 0.1)));
    const datasets = (chart?.config as { data: { datasets: { label: string; data: { x: number; y: number }[] }[] } }).data.datasets;
    expect(datasets.map((d) => d.label)).toEqual(['assign rate (rollouts that launched)', 'truncated (budget, steps or context)']);
    expect(datasets[0]?.data).toEqual([
      { x: 0, y: 0.2 },
      { x: 1, y: 0.6 },
      { x: 2, y: 1 },
    ]);
    const withRepeats = assignChart(run(metrics([0.2, 0.6], 0.1, 1, 0.3)));
    expect((withRepeats?.config as { data: { datasets: unknown[] } }).data.datasets).toHaveLength(3);
  });

  it('is left out for run folders without assign rates', () => {
    const old = metrics([0.5]).map(({ assign_rate: _a, truncated_share: _t, repeat_share: _r, ...m }) => m);
    expect(assignChart(run(old))).toBeNull();
  });
});
