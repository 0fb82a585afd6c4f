/**
 * Running whole episodes of a policy on the batched engine, in batches of slots.
 *
 * @module
 */
import { allocateActionBatch } from '../internal/engine/action-batch.js';
import type { EnvConfig } from '../engine/env-config.js';
import { episodeRecord, type SimEpisodeRecord } from '../engine/episode-records.js';
import { MlpPolicy, type DecisionTrace } from '../policies/mlp-policy.js';
import type { Policy } from '../policies/policy.js';
import { mixSeed } from '../internal/engine/rng.js';
import { SwarmBatch } from '../engine/swarm-batch.js';

/** Seeds of one episode: the task it runs and the stream of everything that happens in it. */
export interface EpisodeSeeds {
  /** Seeds the task: equal task seeds give equal tasks, whatever the policy. */
  readonly taskSeed: number;
  /** Seeds step noise, failures and the policy's sampling. */
  readonly episodeSeed: number;
}

/** Seeds of episode `i` of a run seeded with `seed`, each episode on its own task. */
export function episodeSeeds(seed: number, i: number): EpisodeSeeds {
  return { taskSeed: mixSeed(seed, i), episodeSeed: mixSeed(seed ^ 0x2545f491, i) };
}

/** Options of {@link runEpisodes}. */
export interface RunEpisodesOptions {
  /** Take the most likely action instead of sampling. */
  readonly greedy: boolean;
  /** Slots stepped together (default 256). */
  readonly batchSize?: number;
  /** Id of episode i (default `episode-<i>`). */
  readonly idOf?: (i: number) => string;
  /** `training_step` written into each record. */
  readonly trainingStep?: number;
  /** Passed to the engine: what the policy's `clock` feature divides by. */
  readonly clockScale?: number;
  /**
   * Record every decision of a network policy here (for training); each decision's `slot` is the
   * index of its episode in `seeds`.
   */
  readonly trace?: DecisionTrace;
}

/**
 * Run one episode per entry of `seeds` with `policy` and return their spec §5 records, in order.
 * Episodes are stepped `batchSize` at a time; the result does not depend on `batchSize`. This is
 * the one rollout loop: `simulate`, training and evaluation all run episodes through it.
 */
export function runEpisodes(env: EnvConfig, policy: Policy, seeds: readonly EpisodeSeeds[], options: RunEpisodesOptions): SimEpisodeRecord[] {
  const batchSize = Math.max(1, Math.min(options.batchSize ?? 256, seeds.length));
  const engine = new SwarmBatch(env, batchSize, options.clockScale === undefined ? { recordStages: true } : { recordStages: true, clockScale: options.clockScale });
  const actions = allocateActionBatch(batchSize);
  const idOf = options.idOf ?? ((i: number) => `episode-${i}`);
  const records: SimEpisodeRecord[] = [];
  for (let start = 0; start < seeds.length; start += batchSize) {
    const count = Math.min(batchSize, seeds.length - start);
    for (let b = 0; b < count; b++) {
      const s = seeds[start + b] as EpisodeSeeds;
      engine.reset(b, s.taskSeed, s.episodeSeed);
    }
    for (;;) {
      const { list, length } = engine.activeList(count);
      if (length === 0) break;
      if (options.trace !== undefined && policy instanceof MlpPolicy) policy.actTraced(engine, list, length, options.greedy, actions, options.trace, start);
      else policy.act(engine, list, length, options.greedy, actions);
      engine.step(list, length, actions);
    }
    for (let b = 0; b < count; b++) records.push(episodeRecord(engine, b, idOf(start + b), options.trainingStep));
  }
  return records;
}
