/**
 * `@parl/sim`: a seeded, batched swarm simulator (wide, deep and mixed tasks, frozen sub-agents,
 * orchestrator limits, critical-step budgets) whose episodes are spec §5 records, scripted
 * baselines, a tfjs policy network, and a trainer with the Kimi K2.5 objective whose presets
 * reproduce serial collapse, spurious parallelism and PARL's fix.
 *
 * @packageDocumentation
 */
export {
  mixSeed,
  nextUniform,
  Rng,
} from './engine/rng.js';
export {
  budgetOf,
  DEFAULT_ENV_CONFIG,
  MAX_SUBTASKS,
  maxSubtasksOf,
  resolveEnvConfig,
  TASK_FAMILIES,
  type EnvConfig,
  type IntRange,
  type TaskFamily,
} from './engine/env-config.js';
export {
  allocateActionBatch,
  MODE_DIRECT,
  MODE_LAUNCH,
  type ActionBatch,
} from './engine/actions.js';
export {
  FEATURE_COUNT,
  FEATURE_NAMES,
  READY_SCALE,
} from './engine/features.js';
export {
  END_REASONS,
  SwarmBatch,
  type EndReason,
  type SwarmBatchOptions,
} from './engine/swarm-batch.js';
export {
  type Policy,
} from './policies/policy.js';
export {
  isScriptedPolicyName,
  SCRIPTED_POLICY_NAMES,
  scriptedPolicy,
  type ScriptedPolicyName,
} from './policies/scripted-policies.js';
export {
  episodeRecord,
  type SimEpisodeRecord,
} from './engine/episode-records.js';
export {
  episodeSeeds,
  runEpisodes,
  type EpisodeSeeds,
  type RunEpisodesOptions,
} from './rollout/rollout.js';
export {
  DEFAULT_MLP_SPEC,
  disposeActionTensors,
  emptyDecisionTrace,
  MlpPolicy,
  type ActionTensors,
  type DecisionTrace,
  type InitialHabit,
  type MlpSpec,
  type SavedMlpPolicy,
} from './policies/mlp-policy.js';
export {
  BASE_TRAINING_CONFIG,
  resolveTrainingConfig,
  type EvaluationConfig,
  type ObjectiveConfig,
  type OptimizerConfig,
  type PolicyConfig,
  type TrainingConfig,
  type TrainingRewardConfig,
} from './training/training-config.js';
export {
  getPreset,
  PRESET_NAMES,
  type PresetName,
} from './training/presets.js';
export {
  episodeMeans,
  scoreEpisodes,
  stepMetrics,
  type EpisodeMeans,
  type ScoredEpisode,
} from './evaluation/metrics.js';
export {
  budgetToReach,
  evaluate,
  heldOutSeeds,
  type Evaluation,
} from './evaluation/evaluation.js';
export {
  groupAdvantages,
  lossOfLogProb,
  parlObjectiveGradients,
  parlObjectiveLoss,
  type ObjectiveBatch,
} from './training/parl-objective.js';
export {
  disposeUpdateBatch,
  rewardConfigOf,
  train,
  updatePolicy,
  type TrainingProgress,
  type TrainingResult,
  type TrainOptions,
  type UpdateBatch,
} from './training/trainer.js';
export {
  countLogits,
  decayWeights,
  habitWeight,
  type CountBasis,
  type CountTables,
} from './policies/count-head.js';
export {
  loadPolicy,
  POLICY_FILE,
  policyFiles,
  validateSavedPolicy,
} from './policies/policy-io.js';
export {
  checkRunFolderTarget,
  runFolderFiles,
  writeFolderAtomically,
  writeRunFolder,
  type RunFolderOptions,
  type TempPathRegistry,
} from './runs/run-folder.js';
export {
  CONFIG_FILE,
  METRICS_FILE,
  POLICY_FOLDER,
  RUN_FOLDER_ENTRIES,
  RUN_FOLDER_FILES,
  SUMMARY_FILE,
} from './runs/run-folder-entries.js';
export {
  readRunFolder,
  RunFolderReadError,
  runFolderContentsOf,
  runFolderContentsOfFiles,
  type MetricsSink,
  type RunFolderContents,
} from './runs/read-run-folder.js';
export { completeRunSummary } from './runs/run-folder-complete.js';
export { writeFileAtomically } from './runs/atomic-file.js';
export {
  simulate,
  type SimulateOptions,
} from './rollout/simulate.js';
export { canonicalJson, RUN_ID_LENGTH, runIdOf } from './runs/run-id.js';
export {
  MAX_SWEEP_RUNS,
  resolveSweep,
  sweepPath,
  validateSweepSpec,
  type NumericRange,
  type ResolvedSweep,
  type SweepRange,
  type SweepRunPlan,
  type SweepSpec,
} from './sweeps/sweep-spec.js';
export { trainSweepRun, type SweepRunOutput, type SweepTask } from './sweeps/sweep-job.js';
export {
  runSweep,
  sweepRunFolder,
  type SweepOptions,
  type SweepOutcome,
  type SweepRunEvent,
  type SweepRunWritten,
} from './sweeps/run-sweep.js';
export { SweepError } from './sweeps/sweep-error.js';
export { claimSweepFolder, SWEEP_MARKER_FILE } from './sweeps/sweep-folder.js';
export { type SweepJson, type SweepJsonRun } from './sweeps/sweep-json.js';
export { RESULT_COLUMNS, resultsCsv, type SweepResult } from './sweeps/sweep-results.js';
export { bestPoint, sweepPointRows, type SweepPointRow } from './sweeps/sweep-points.js';
export { createLocalPool, defaultThreads, type SweepRunner } from './sweeps/local-pool.js';
export { checkQueueUrl, DEFAULT_QUEUE_NAME } from '@parl/io';
export type { QueueRunnerEvent } from '@parl/io/queue';
export {
  DEFAULT_PRESET,
  DEFAULT_SIMULATE_POLICY,
  SIMULATE_DEFAULTS,
  SIMULATE_OPTIONS,
  SWEEP_OPTIONS,
  TRAIN_OPTIONS,
  type SimulateSettings,
  type SweepSettings,
  type TrainSettings,
} from './options.js';
