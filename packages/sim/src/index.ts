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
} from './rng.js';
export {
  DEFAULT_ENV_CONFIG,
  MAX_SUBTASKS,
  maxSubtasksOf,
  resolveEnvConfig,
  TASK_FAMILIES,
  type EnvConfig,
  type IntRange,
  type TaskFamily,
} from './env-config.js';
export {
  allocateActionBatch,
  MODE_DIRECT,
  MODE_LAUNCH,
  type ActionBatch,
} from './actions.js';
export {
  FEATURE_COUNT,
  FEATURE_NAMES,
  READY_SCALE,
} from './features.js';
export {
  END_REASONS,
  SwarmBatch,
  type EndReason,
  type SwarmBatchOptions,
} from './swarm-batch.js';
export {
  type Policy,
} from './policy.js';
export {
  isScriptedPolicyName,
  SCRIPTED_POLICY_NAMES,
  scriptedPolicy,
  type ScriptedPolicyName,
} from './scripted-policies.js';
export {
  episodeRecord,
  type SimEpisodeRecord,
} from './episode-records.js';
export {
  episodeSeeds,
  runEpisodes,
  type EpisodeSeeds,
  type RunEpisodesOptions,
} from './rollout.js';
export {
  DEFAULT_MLP_SPEC,
  emptyDecisionTrace,
  MlpPolicy,
  type DecisionTrace,
  type InitialHabit,
  type MlpSpec,
  type SavedMlpPolicy,
} from './mlp-policy.js';
export {
  BASE_TRAINING_CONFIG,
  resolveTrainingConfig,
  type EvaluationConfig,
  type ObjectiveConfig,
  type OptimizerConfig,
  type PolicyConfig,
  type TrainingConfig,
  type TrainingRewardConfig,
} from './training-config.js';
export {
  getPreset,
  PRESET_NAMES,
  type PresetName,
} from './presets.js';
export {
  episodeMeans,
  scoreEpisodes,
  stepMetrics,
  type EpisodeMeans,
  type ScoredEpisode,
} from './metrics.js';
export {
  budgetToReach,
  evaluate,
  heldOutSeeds,
  type Evaluation,
} from './evaluation.js';
export {
  groupAdvantages,
  parlObjectiveGradients,
  parlObjectiveLoss,
  ratioWindowMask,
  type ObjectiveBatch,
} from './parl-objective.js';
export {
  buildUpdateBatch,
  disposeUpdateBatch,
  rewardConfigOf,
  train,
  updatePolicy,
  type TrainingProgress,
  type TrainingResult,
  type TrainOptions,
  type UpdateBatch,
} from './trainer.js';
export {
  countLogits,
  countTables,
  decayWeights,
  habitWeight,
  type CountBasis,
  type CountTables,
} from './count-head.js';
export {
  loadPolicy,
  POLICY_FILE,
  policyFiles,
  validateSavedPolicy,
} from './policy-io.js';
export {
  checkRunFolderTarget,
  RUN_FOLDER_ENTRIES,
  runFolderFiles,
  writeRunFolder,
  type RunFolderOptions,
  type TempPathRegistry,
} from './run-folder.js';
export {
  simulate,
  type SimulateOptions,
} from './simulate.js';
export { canonicalJson, RUN_ID_LENGTH, runIdOf } from './run-id.js';
export {
  resolveSweep,
  sweepPath,
  validateSweepSpec,
  type NumericRange,
  type ResolvedSweep,
  type SweepRange,
  type SweepRunPlan,
  type SweepSpec,
} from './sweep-spec.js';
export { trainSweepRun, type SweepRunOutput, type SweepTask } from './sweep-job.js';
