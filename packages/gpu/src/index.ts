/**
 * `@parl/gpu`: the PARL quantities of `@parl/core` as batched float32 kernels on TensorFlow.js —
 * rewards, critical steps, DAG heaviest paths and a smooth critical-steps surrogate — on
 * tfjs-node-gpu when it is installed, else tfjs-node, wasm or cpu.
 *
 * @packageDocumentation
 */
export * from './backend.js';
