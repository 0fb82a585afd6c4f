/**
 * `@parl/core`: the PARL math of the Kimi K2.5 report — reward terms, λ schedules, critical
 * steps (staged and DAG), budgets, diagnostics and validation. No runtime dependencies.
 *
 * @packageDocumentation
 */
export {
  describeValue,
  fieldPath,
  PARL_ERROR_CODES,
  ParlInputError,
  type ParlErrorCode,
  requireArray,
  requireCount,
  requireFinite,
  requireNonNegative,
  requireObject,
  requireOneOf,
  requirePositive,
  requirePositiveInteger,
} from './errors.js';
export {
  parseDecimal,
} from './decimal.js';
export {
  formatSchedule,
  isSchedule,
  parseSchedule,
  sameSchedule,
  SCHEDULE_KINDS,
  validateScheduleSpec,
  type ConstantScheduleSpec,
  type CosineScheduleSpec,
  type ExponentialScheduleSpec,
  type LinearScheduleSpec,
  type PiecewiseScheduleSpec,
  type Schedule,
  type ScheduleInput,
  type ScheduleSpec,
  type StepScheduleSpec,
} from './schedules.js';
export {
  isLabelledRecord,
  isValidatedEpisode,
  MAX_NESTING_DEPTH,
  validateRecord,
  validateStages,
  type RecordValidationOptions,
  type EpisodeRecord,
  type NestedSubAgentRun,
  type NormalizedEpisode,
  type NormalizedStage,
  type PerfSource,
  type StageRecord,
  type SubAgentEntry,
  type SubAgentRun,
} from './records.js';
export {
  EPISODE_RECORD_FIELDS,
  LABEL_FIELDS,
  recordFieldHints,
  STAGE_FIELDS,
  SUB_AGENT_FIELDS,
  suggestField,
  type FieldHint,
} from './field-hints.js';
export {
  combineReward,
  computeReward,
  PARALLEL_SHAPES,
  resolveRewardConfig,
  REWARD_DEFAULTS,
  rewardOfEpisode,
  rFinish,
  rParallel,
  rParallelUnchecked,
  rPerf,
  type ParallelShape,
  type ResolvedRewardConfig,
  type RewardBreakdown,
  type RewardConfig,
} from './reward.js';
export {
  criticalSteps,
  criticalStepsOfStages,
  parallelismOf,
  type CriticalStepsResult,
} from './critical-steps.js';
export { asRunWaitSteps, overlapWaves, type TimedRun, type TimeSpan } from './as-run.js';
export { CriticalStepsMeter, type MeteredAgent, type MeteredCall } from './critical-steps-meter.js';
export {
  heaviestPath,
  stagesToDag,
  type DagNode,
  type HeaviestPath,
} from './dag.js';
export {
  applyBudget,
  BUDGET_MODES,
  parseBudgetMode,
  type BudgetCut,
  type BudgetMode,
} from './budget.js';
export {
  DEFAULT_DIAGNOSTIC_THRESHOLDS,
  diagnose,
  type Diagnostics,
  type DiagnosticThresholds,
} from './diagnostics.js';
export {
  criticalStepsLabelFields,
  labelCriticalSteps,
  labelReward,
  rewardLabelFields,
  withLabelFields,
  type CriticalStepsLabelFields,
  type CriticalStepsLabelledRecord,
  type CriticalStepsLabelOptions,
  type RewardLabelFields,
  type RewardLabelledRecord,
} from './labels.js';
export { REWARD_BATCH_FIELDS, rewardBatch, rewardTotalBatch } from './batch/reward-batch.js';
export { allocateRewardBatch, allocateRewardBatchOutput, type RewardBatchColumns } from './batch/reward-wasm.js';
export { allocateCriticalStepsBatchOutput, CRITICAL_STEPS_BATCH_FIELDS, criticalStepsBatch } from './batch/critical-steps-batch.js';
export { allocateCriticalStepsBatchInput } from './batch/critical-steps-wasm.js';
export { criticalStepsBatchInputOf } from './batch/stage-episodes.js';
export {
  type CriticalStepsBatchFloat32Input,
  type CriticalStepsBatchInput,
  type CriticalStepsBatchOutput,
  type NumericArray,
  type RewardBatchInput,
  type RewardBatchOutput,
} from './batch/batch-types.js';
export { BATCH_KERNELS, resolveBatchKernel, type BatchKernel } from './batch/batch-kernel.js';
export { wasmSimdSupported } from './batch/wasm-arena.js';
export {
  OPTIONAL_STEP_METRIC_FIELDS,
  STEP_METRIC_FIELDS,
  validateRunSummary,
  validateStepMetrics,
  type BaselineMetrics,
  type FinalMetrics,
  type LatencyToTarget,
  type RunSummary,
  type ScriptedBaselineResult,
  type StepMetrics,
} from './run-records.js';
export {
  DEFAULT_VERDICT_THRESHOLDS,
  RUN_VERDICTS,
  runVerdict,
  speedupOverSerial,
  spreadOf,
  summarizeSweepPoint,
  type RunVerdict,
  type Spread,
  type SweepPointSummary,
  type SweepRunNumbers,
  type VerdictThresholds,
} from './sweep-stats.js';
export { recordText } from './record-text.js';
export { ROLLOUT_ID_ATTRIBUTE } from './trace-attributes.js';
export {
  defaultOf,
  defineOptionTable,
  optionRows,
  type AnyOptionRow,
  type CheckedRows,
  type DefaultedOptionKey,
  type Flat,
  type OptionRow,
  type OptionRows,
  type OptionsOf,
  type OptionTable,
  type OptionValue,
  type RequiredOptionKey,
  type ResolvedOptions,
} from './options/option-table.js';
export { optionField, optionName, resolveOptions, type OptionSource } from './options/resolve-options.js';
export {
  choiceOption,
  integerOptionIn,
  nameListOption,
  nonEmptyTextOption,
  nonNegativeDecimalOption,
  positiveDecimalOption,
  positiveIntegerOption,
  scheduleOption,
  switchOption,
  textOption,
  type OptionParser,
} from './options/option-parsers.js';
export { optionsMarkdown, replaceBetweenMarkers, type OptionDocsColumn } from './options/option-docs.js';
export { finishRate, meanFinishRate, pooledFinishRate, type FinishCounts } from './finish-rate.js';
export {
  launchedSubagentsOfRows,
  subagentCounts,
  subagentCountsOfEpisode,
  type SubagentCounts,
} from './subagent-counts.js';
export { ADVANTAGE_SCALES, GRPO_EPSILON, groupedAdvantages, grpoAdvantages, type AdvantageOptions, type AdvantageScale } from './grpo.js';
export { CRITICAL_STEPS_OPTIONS, REWARD_OPTIONS, type CriticalStepsOptions, type RewardOptions } from './options/reward-options.js';
export { scheduleEndStep } from './schedule-end-step.js';
export { budgetToReachTarget, requireTargets, type EpisodeOutcome } from './latency-to-target.js';
