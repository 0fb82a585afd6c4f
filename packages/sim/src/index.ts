/**
 * `@parl/sim`: a seeded, batched swarm simulator (wide, deep and mixed tasks, frozen sub-agents,
 * orchestrator limits, critical-step budgets) whose episodes are spec §5 records, scripted
 * baselines, a tfjs policy network, and a trainer with the Kimi K2.5 objective whose presets
 * reproduce serial collapse, spurious parallelism and PARL's fix.
 *
 * Only what code outside the package uses is exported here (and pinned in `api/sim.api.md`); the
 * rest lives in the rooms and under `src/internal/`, never re-exported.
 *
 * @packageDocumentation
 */
export { DEFAULT_ENV_CONFIG, resolveEnvConfig, type EnvConfig, type IntRange, type TaskFamily } from './engine/env-config.js';
export { MODE_DIRECT, MODE_LAUNCH, type ActionBatch } from './engine/actions.js';
export { SwarmBatch, type EndReason, type SwarmBatchOptions } from './engine/swarm-batch.js';
export type { SimEpisodeRecord } from './engine/episode-records.js';
export type { Policy } from './policies/policy.js';
export { isScriptedPolicyName, SCRIPTED_POLICY_NAMES, scriptedPolicy, type ScriptedPolicyName } from './policies/scripted-policies.js';
export type { CountBasis } from './policies/count-basis.js';
export { MlpPolicy, type ActionTensors, type DecisionTrace, type InitialHabit, type MlpSpec, type SavedMlpPolicy } from './policies/mlp-policy.js';
export { loadPolicy } from './policies/policy-io.js';
export { episodeSeeds, runEpisodes, type EpisodeSeeds, type RunEpisodesOptions } from './rollout/rollout.js';
export { simulate, type SimulateOptions } from './rollout/simulate.js';
export {
  resolveTrainingConfig,
  type EvaluationConfig,
  type ObjectiveConfig,
  type OptimizerConfig,
  type PolicyConfig,
  type TrainingConfig,
  type TrainingRewardConfig,
} from './training/training-config.js';
export { getPreset } from './training/presets.js';
export { train, type TrainingProgress, type TrainingResult, type TrainOptions } from './training/trainer.js';
export { checkRunFolderTarget, writeRunFolder, type RunFolderOptions, type TempPathRegistry } from './runs/run-folder.js';
export { RUN_FOLDER_FILES } from './runs/run-folder-entries.js';
export { readRunFolder, RunFolderReadError, runFolderContentsOf, type MetricsSink, type RunFolderContents } from './runs/read-run-folder.js';
export { resolveSweep, type NumericRange, type ResolvedSweep, type SweepRange, type SweepRunPlan, type SweepSpec } from './sweeps/sweep-spec.js';
export { runSweep, type SweepOptions, type SweepOutcome, type SweepRunEvent, type SweepRunWritten } from './sweeps/run-sweep.js';
export { SweepError } from './sweeps/sweep-error.js';
export type { SweepResult } from './sweeps/sweep-results.js';
export { bestPoint, sweepPointRows, type SweepPointRow } from './sweeps/sweep-points.js';
export type { QueueRunnerEvent } from '@parl/io/queue';
export {
  DEFAULT_PRESET,
  SIMULATE_DEFAULTS,
  SIMULATE_OPTIONS,
  SWEEP_OPTIONS,
  TRAIN_OPTIONS,
  type SimulateSettings,
  type SweepSettings,
  type TrainSettings,
} from './options.js';
