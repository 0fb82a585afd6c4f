/**
 * One run of a sweep, wherever it runs (a local worker thread or a `parl worker` on another
 * machine): train the config and return the files of its spec §6 run folder, so that the
 * sweep's single writer puts them in place. The same task gives byte-identical files everywhere
 * the backend is the same.
 *
 * @module
 */
import { ParlInputError, type RunSummary } from '@parl/core';
import { tf } from '@parl/gpu';
import { runIdOf } from '../runs/run-id.js';
import { runFolderFiles } from '../../runs/run-folder.js';
import { train } from '../../training/trainer.js';
import { BASE_TRAINING_CONFIG, resolveTrainingConfig, type TrainingConfig } from '../../training/training-config.js';

/** What a sweep hands a worker: the resolved config and its run id. */
export interface SweepTask {
  /** {@link runIdOf} the config; checked before training. */
  readonly runId: string;
  /** The resolved training config. */
  readonly config: TrainingConfig;
}

/** What a worker hands back. */
export interface SweepRunOutput {
  /** The task's run id. */
  readonly runId: string;
  /** The run folder's files by relative path: config.json, metrics.jsonl, summary.json, policy/policy.json. */
  readonly files: Record<string, string>;
  /** `summary.json`, parsed. */
  readonly summary: RunSummary;
  /** Seconds the training and evaluation took. */
  readonly wallSeconds: number;
  /** The tfjs backend it ran on (`wasm`, `cpu`, `tensorflow`). */
  readonly backend: string;
}

/**
 * Train one sweep run and return its run folder's files. The config is validated again (it may
 * have crossed a queue) and must hash to the task's run id.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad config, or one whose hash is not `runId`
 *
 * @example
 * ```ts
 * import { getPreset, resolveTrainingConfig } from '@parl/sim';
 * import { runIdOf } from '../runs/run-id.js';
 * const config = resolveTrainingConfig({ steps: 2, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl'));
 * const out = await trainSweepRun({ runId: runIdOf(config), config });
 * JSON.parse(out.files['summary.json']).steps; // 2
 * ```
 */
export async function trainSweepRun(task: SweepTask): Promise<SweepRunOutput> {
  const config = resolveTrainingConfig(task.config, BASE_TRAINING_CONFIG);
  const id = runIdOf(config);
  if (id !== task.runId) throw new ParlInputError('runId', task.runId, `the hash of the task's config (${id}): the sender and this worker disagree on the config`);
  const started = performance.now();
  const result = await train(config);
  try {
    const wallSeconds = (performance.now() - started) / 1000;
    return { runId: id, files: runFolderFiles(result), summary: result.summary, wallSeconds, backend: tf.getBackend() };
  } finally {
    result.policy.dispose();
  }
}
