/**
 * The held-out evaluation at the end of a run: the trained policy (greedy) against the
 * always-serial baseline on the same tasks, and the latency-to-target curve.
 *
 * @module
 */
import {
  applyBudget,
  resolveRewardConfig,
  type BaselineMetrics,
  type FinalMetrics,
  type LatencyToTarget,
  type NormalizedStage,
} from '@parl/core';
import type { EnvConfig } from './env-config.js';
import { episodeMeans, scoreEpisodes, type ScoredEpisode } from './metrics.js';
import type { Policy } from './policy.js';
import { mixSeed } from './rng.js';
import { episodeSeeds, runEpisodes, type EpisodeSeeds } from './rollout.js';
import { scriptedPolicy } from './scripted-policies.js';

/** The outcome of {@link evaluate}. */
export interface Evaluation {
  /** The trained policy. */
  readonly final: FinalMetrics;
  /** The serial baseline. */
  readonly baseline_serial: BaselineMetrics;
  /** Budgets needed per target. */
  readonly latency_to_target: LatencyToTarget[];
}

/** Seeds of the held-out tasks of a run: a stream of their own, never used in training. */
export function heldOutSeeds(seed: number, episodes: number): EpisodeSeeds[] {
  const evalSeed = mixSeed(seed, 0x0e7a1);
  return Array.from({ length: episodes }, (_, i) => episodeSeeds(evalSeed, i));
}

/**
 * The smallest critical-step budget K at which the mean r_perf under `fail` (an episode counts
 * only when `applyBudget` finds it within K) reaches `target`; null when even no budget does.
 * Candidates are the episodes' own critical steps, the only points where the mean changes.
 */
export function budgetToReach(scored: readonly ScoredEpisode[], target: number): number | null {
  const n = scored.length;
  if (n === 0) return null;
  const candidates = [...new Set(scored.map((s) => s.criticalSteps))].sort((a, b) => a - b);
  let lo = 0;
  let hi = candidates.length - 1;
  const meanAt = (k: number): number => {
    let sum = 0;
    for (const s of scored) if (applyBudget(s.episode.stages as readonly NormalizedStage[], k).within_budget) sum += s.reward.r_perf;
    return sum / n;
  };
  if (meanAt(candidates[hi] as number) < target) return null;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (meanAt(candidates[mid] as number) >= target) hi = mid;
    else lo = mid + 1;
  }
  return candidates[lo] as number;
}

/**
 * Evaluate `policy` greedily and the serial baseline on the same held-out tasks, under the
 * run's environment (its budget included); then, with the budget lifted, the budget each
 * needs to reach each r_perf target.
 */
export function evaluate(policy: Policy, env: EnvConfig, seed: number, episodes: number, targets: readonly number[]): Evaluation {
  const seeds = heldOutSeeds(seed, episodes);
  const reward = resolveRewardConfig({});
  const serial = scriptedPolicy('serial');
  const trained = episodeMeans(scoreEpisodes(runEpisodes(env, policy, seeds, { greedy: true }), reward));
  const base = episodeMeans(scoreEpisodes(runEpisodes(env, serial, seeds, { greedy: true }), reward));
  const unbudgeted: EnvConfig = { ...env, budget: null };
  const clockScale = env.budget !== null && env.budget > 0 ? env.budget : env.orchestratorMaxSteps;
  const trainedFree = scoreEpisodes(runEpisodes(unbudgeted, policy, seeds, { greedy: true, clockScale }), reward);
  const serialFree = scoreEpisodes(runEpisodes(unbudgeted, serial, seeds, { greedy: true, clockScale }), reward);
  return {
    final: {
      r_perf: trained.r_perf,
      critical_steps: trained.critical_steps,
      mean_width: trained.mean_width,
      finish_rate: trained.finish_rate,
      success_rate: trained.success_rate,
    },
    baseline_serial: { r_perf: base.r_perf, critical_steps: base.critical_steps },
    latency_to_target: targets.map((target) => ({
      target,
      policy: budgetToReach(trainedFree, target),
      serial: budgetToReach(serialFree, target),
    })),
  };
}
