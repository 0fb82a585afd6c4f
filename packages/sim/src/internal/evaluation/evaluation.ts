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
  type ScriptedBaselineResult,
} from '@parl/core';
import { budgetOf, type EnvConfig } from '../../engine/env-config.js';
import { episodeMeans, scoreEpisodes, type ScoredEpisode } from './metrics.js';
import type { Policy } from '../../policies/policy.js';
import { mixSeed } from '../engine/rng.js';
import { episodeSeeds, runEpisodes, type EpisodeSeeds } from '../../rollout/rollout.js';
import { SCRIPTED_POLICY_NAMES, scriptedPolicy } from '../../policies/scripted-policies.js';
import type { SimEpisodeRecord } from '../../engine/episode-records.js';

/** The outcome of {@link evaluate}. */
export interface Evaluation {
  /** The trained policy. */
  readonly final: FinalMetrics;
  /** The serial baseline. */
  readonly baseline_serial: BaselineMetrics;
  /** Budgets needed per target. */
  readonly latency_to_target: LatencyToTarget[];
  /** Every scripted policy on the same tasks, with its latency curve and whether it acts like the trained one. */
  readonly baselines: ScriptedBaselineResult[];
}

function sameEpisodes(a: readonly SimEpisodeRecord[], b: readonly SimEpisodeRecord[]): boolean {
  return a.length === b.length && a.every((r, i) => JSON.stringify(r) === JSON.stringify(b[i]));
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
  // The run's budget rule (core's), for the episodes under the run's budget; none once it is lifted.
  const reward = resolveRewardConfig(budgetOf(env));
  const unbudgetedReward = resolveRewardConfig({});
  const clockScale = env.budget !== null && env.budget > 0 ? env.budget : env.orchestratorMaxSteps;
  const measure = (p: Policy, inEnv: EnvConfig = env): { records: SimEpisodeRecord[]; means: ReturnType<typeof episodeMeans>; free: ScoredEpisode[] } => {
    const records = runEpisodes(inEnv, p, seeds, { greedy: true });
    return {
      records,
      means: episodeMeans(scoreEpisodes(records, reward)),
      free: scoreEpisodes(runEpisodes({ ...inEnv, budget: null }, p, seeds, { greedy: true, clockScale }), unbudgetedReward),
    };
  };
  const trained = measure(policy);
  // The serial baseline is the single agent with its tools: in a delegate-only environment it
  // keeps the direct action the orchestrator lost (the others never use it).
  const scripted = SCRIPTED_POLICY_NAMES.map((name) => ({ name, ...measure(scriptedPolicy(name), name === 'serial' ? { ...env, directAction: true } : env) }));
  const serial = scripted.find((b) => b.name === 'serial');
  if (serial === undefined) throw new Error('evaluate: no serial baseline');
  const t = trained.means;
  return {
    final: {
      r_perf: t.r_perf,
      critical_steps: t.critical_steps,
      mean_width: t.mean_width,
      finish_rate: t.subagents > 0 ? t.finish_rate : null,
      success_rate: t.success_rate,
      total_steps: t.total_steps,
      subagents: t.subagents,
      assign_rate: t.assign_rate,
      truncated_share: t.truncated_share,
    },
    baseline_serial: { r_perf: serial.means.r_perf, critical_steps: serial.means.critical_steps, total_steps: serial.means.total_steps },
    latency_to_target: targets.map((target) => ({
      target,
      policy: budgetToReach(trained.free, target),
      serial: budgetToReach(serial.free, target),
    })),
    baselines: scripted.map((b) => ({
      policy: b.name,
      r_perf: b.means.r_perf,
      critical_steps: b.means.critical_steps,
      total_steps: b.means.total_steps,
      subagents: b.means.subagents,
      mean_width: b.means.mean_width,
      finish_rate: b.means.subagents > 0 ? b.means.finish_rate : null,
      success_rate: b.means.success_rate,
      latency: targets.map((target) => budgetToReach(b.free, target)),
      same_as_trained: sameEpisodes(trained.records, b.records),
    })),
  };
}
