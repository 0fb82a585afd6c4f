/**
 * What happened to delegation over a training run, and why, in one clause: read from the
 * `assign_rate`, `truncated_share` and `repeat_share` of `metrics.jsonl` and the λ values at its
 * last step. `parl train`'s closing line and the training report's lead end with it.
 *
 * @module
 */
import type { StepMetrics } from '@parl/core';
import { formatNumber } from './format-number.js';

/** A fall of the assign rate from its peak this large counts as delegation unlearned (OpenPARL's fell 0.70). */
const UNLEARNED_DROP = 0.4;

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

function percent(x: number): string {
  return `${formatNumber(100 * x, 2)} %`;
}

/**
 * One clause: how the assign rate (the share of a step's rollouts that launched a sub-agent)
 * moved — learned, unlearned or never learned, with its first value, its peak (a 10-step moving
 * average), the dip before the peak when there was one, and its mean over the last tenth of
 * training —, how many of the last tenth's rollouts
 * were truncated (and, without the direct tool, repeated themselves), and the reason the reward
 * gives for it. Null for metrics that do not record the assign rate (older run folders).
 *
 * @param metrics - the run's `metrics.jsonl` lines, in step order
 * @param directAction - whether the orchestrator had a direct tool (`config.env.directAction`)
 *
 * @example
 * ```ts
 * trainingStory(metrics, true);
 * // 'delegation was learned: the assign rate went from 0.383 (first step) down to 0.0172 (around step 8) and up to 1 (last tenth), 0 % of the last tenth's rollouts truncated, because λ1 paid for launching while the policy explored and, once λ1 and λ2 had annealed to 0, launching still won on r_perf alone'
 * ```
 */
export function trainingStory(metrics: readonly StepMetrics[], directAction: boolean): string | null {
  const first = metrics[0];
  const lastStep = metrics.at(-1);
  if (first === undefined || lastStep === undefined || metrics.some((m) => m.assign_rate === undefined || m.truncated_share === undefined)) return null;
  const assign = metrics.map((m) => m.assign_rate as number);
  const tenth = Math.max(1, Math.floor(metrics.length / 10));
  const window = Math.max(1, Math.min(10, tenth));
  const averages: number[] = [];
  for (let i = 0; i + window <= assign.length; i++) averages.push(mean(assign.slice(i, i + window)));
  let peak = -1;
  let peakAt = 0;
  averages.forEach((a, i) => {
    if (a > peak) {
      peak = a;
      peakAt = i;
    }
  });
  const peakStep = (metrics[peakAt] as StepMetrics).step;
  // The lowest average before the peak: a dip the rise started from (the first launches failing).
  let trough = Infinity;
  let troughAt = 0;
  averages.slice(0, peakAt + 1).forEach((a, i) => {
    if (a < trough) {
      trough = a;
      troughAt = i;
    }
  });
  const tail = metrics.slice(-tenth);
  const last = mean(tail.map((m) => m.assign_rate as number));
  const truncated = mean(tail.map((m) => m.truncated_share as number));
  const repeated = mean(tail.map((m) => m.repeat_share ?? 0));
  const f = (x: number): string => formatNumber(x, 3);
  const annealed = lastStep.lambda1 === 0 && lastStep.lambda2 === 0;
  const paidFromStart = first.lambda1 > 0 || first.lambda2 > 0;

  let what: string;
  let kind: 'unlearned' | 'learned' | 'never' | 'partial';
  if (peak - last >= UNLEARNED_DROP) {
    kind = 'unlearned';
    what = `delegation was unlearned: the assign rate rose to ${f(peak)} (around step ${peakStep}) and fell to ${f(last)} (last tenth)`;
  } else if (last >= 0.9) {
    kind = 'learned';
    const dip = trough < (first.assign_rate as number) - 0.2 ? ` down to ${f(trough)} (around step ${(metrics[troughAt] as StepMetrics).step}) and up` : '';
    what = `delegation was learned: the assign rate went from ${f(first.assign_rate as number)} (first step)${dip} to ${f(last)} (last tenth)`;
  } else if (peak < 0.3 && last < 0.1) {
    kind = 'never';
    what = `delegation was never learned: the assign rate never rose above ${f(peak)} and ended at ${f(last)}`;
  } else {
    kind = 'partial';
    what = `the assign rate went from ${f(first.assign_rate as number)} (first step) to ${f(last)} (last tenth), ${f(peak)} at its peak`;
  }
  const cut = `${percent(truncated)} of the last tenth's rollouts truncated${directAction ? '' : ` and ${percent(repeated)} repeating themselves`}`;

  let why: string;
  if (!annealed && paidFromStart) {
    why = `λ1 = ${f(lastStep.lambda1)} and λ2 = ${f(lastStep.lambda2)} still paid for launching and for finished sub-agents at the last step (never annealed), so the final policy optimised them beside r_perf`;
  } else if (kind === 'unlearned') {
    why = directAction
      ? 'launches came to score less than doing the work itself once λ1 and λ2 stopped paying for them'
      : 'without the direct tool a launch that overruns the budget or the context scores 0, and an early answer with what the orchestrator has scored more';
  } else if (kind === 'never') {
    why = first.lambda1 === 0 ? 'nothing paid for launching (λ1 = 0) and the early, narrow launches failed, so trying stopped' : 'the early launches failed more than λ1 paid for them';
  } else if (kind === 'learned') {
    why = directAction
      ? 'λ1 paid for launching while the policy explored and, once λ1 and λ2 had annealed to 0, launching still won on r_perf alone'
      : 'without the direct tool the only alternative to a launch is an answer from memory, and one wide launch of reliable sub-agents scores far more';
  } else {
    why = 'launching paid on some tasks and not on others';
  }
  return `${what}, ${cut}, because ${why}`;
}
