/**
 * `@parl/gpu`: the PARL quantities of `@parl/core` as batched float32 kernels on TensorFlow.js —
 * rewards, critical steps, DAG heaviest paths and a smooth critical-steps surrogate — on
 * tfjs-node-gpu when it is installed, else tfjs-node, wasm or cpu.
 *
 * @packageDocumentation
 */
export * from './backend.js';
export { registerParlGradients, PARL_GRADIENT_KERNELS } from './gradients.js';
export { isTensor, type NumericInput } from './tensor-input.js';
export type { KernelOptions, OutputMode } from './output.js';
export * from './reward-kernel.js';
export * from './staged-input.js';
export * from './critical-steps-kernel.js';
export * from './smooth-critical-steps.js';
export * from './heaviest-path-kernel.js';
