/**
 * `simulate`: run a policy on freshly drawn tasks and return spec §5 records.
 *
 * @module
 */
import { ParlInputError, requirePositiveInteger } from '@parl/core';
import { DEFAULT_ENV_CONFIG, resolveEnvConfig, type EnvConfig, type TaskFamily } from '../engine/env-config.js';
import type { SimEpisodeRecord } from '../engine/episode-records.js';
import type { Policy } from '../policies/policy.js';
import { episodeSeeds, runEpisodes } from './rollout.js';
import { scriptedPolicy, type ScriptedPolicyName } from '../policies/scripted-policies.js';

/** Options of {@link simulate}. */
export interface SimulateOptions {
  /** A policy (e.g. from `loadPolicy`) or the name of a scripted one. */
  readonly policy: Policy | ScriptedPolicyName;
  /** Task family (default: `env.family`, else `wide`). */
  readonly family?: TaskFamily;
  /** Number of episodes, each on its own task. */
  readonly episodes: number;
  /** Seed (default 1): the same seed gives the same tasks and the same episodes. */
  readonly seed?: number;
  /** Environment parameters over the defaults (validated). */
  readonly env?: Partial<EnvConfig>;
  /** Take the most likely action instead of sampling (trained policies; default false). */
  readonly greedy?: boolean;
  /** Episodes stepped together (default 256); the records do not depend on it. */
  readonly batchSize?: number;
}

/**
 * Run `episodes` episodes of a policy, each on a task drawn from `seed`, and return their
 * spec §5 records (`id` = `episode-<i>`).
 *
 * @throws {@link @parl/core!ParlInputError} for an unknown policy name, a bad episode count or env parameter
 *
 * @example
 * ```ts
 * const records = await simulate({ policy: 'balanced', family: 'deep', episodes: 100, seed: 7 });
 * ```
 */
export async function simulate(options: SimulateOptions): Promise<SimEpisodeRecord[]> {
  const episodes = requirePositiveInteger(options.episodes, 'episodes');
  const seed = options.seed ?? 1;
  if (typeof seed !== 'number' || !Number.isInteger(seed)) throw new ParlInputError('seed', seed, 'an integer');
  const env = resolveEnvConfig(
    { ...(options.env ?? {}), ...(options.family === undefined ? {} : { family: options.family }) },
    DEFAULT_ENV_CONFIG,
    'env',
  );
  const policy: Policy = typeof options.policy === 'string' ? scriptedPolicy(options.policy) : options.policy;
  const batchSize = options.batchSize === undefined ? 256 : requirePositiveInteger(options.batchSize, 'batchSize');
  const seeds = Array.from({ length: episodes }, (_, i) => episodeSeeds(seed, i));
  return runEpisodes(env, policy, seeds, { greedy: options.greedy ?? false, batchSize });
}
