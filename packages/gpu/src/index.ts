/**
 * `@parl/gpu`: the PARL quantities of `@parl/core` as batched float32 kernels on TensorFlow.js —
 * rewards, critical steps, DAG heaviest paths and a smooth critical-steps surrogate — on
 * tfjs-node-gpu when it is installed, else tfjs-node, wasm or cpu.
 *
 * @packageDocumentation
 */
export {
  activeBackend,
  BACKEND_ENV_VAR,
  BACKEND_NAMES,
  BACKEND_PACKAGES,
  DEFAULT_BACKEND_ORDER,
  initBackend,
  tf,
  type BackendName,
  type BackendSelection,
  type InitBackendOptions,
  type SkippedBackend,
} from './backend.js';
export { registerParlGradients, PARL_GRADIENT_KERNELS } from './gradients.js';
export { isTensor, type NumericInput } from './tensor-input.js';
export type { KernelOptions, OutputMode } from './output.js';
export {
  rewardKernel,
  rewardOp,
  type RewardArrays,
  type RewardKernelInput,
  type RewardOpInput,
  type RewardOpOptions,
  type RewardTensors,
} from './reward-kernel.js';
export {
  stagedMasks,
  stagedTensors,
  type StagedBatchInput,
  type StagedMasks,
  type StagedTensors,
} from './staged-input.js';
export {
  criticalStepsKernel,
  criticalStepsOp,
  type CriticalStepsArrays,
  type CriticalStepsTensors,
} from './critical-steps-kernel.js';
export {
  smoothCriticalStepsKernel,
  smoothCriticalStepsOp,
  smoothGapBound,
  type SmoothCriticalStepsArrays,
  type SmoothCriticalStepsTensors,
} from './smooth-critical-steps.js';
export {
  denseDags,
  heaviestPathKernel,
  heaviestPathOp,
  type DagBatchInput,
  type DenseDags,
  type HeaviestPathArrays,
  type HeaviestPathOptions,
  type HeaviestPathTensors,
} from './heaviest-path-kernel.js';
