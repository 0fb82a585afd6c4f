// @parl/gpu on a large batch: pick the fastest backend available here (tfjs-node-gpu → tfjs-node
// → wasm → cpu, or PARL_BACKEND), compute rewards and critical steps for a large batch of
// episodes on it, and check them against @parl/core's float64 kernels on the same input.
// Run: node examples/gpu-batch.mjs [episodes]     (PARL_BACKEND=cpu|wasm|tensorflow|tensorflow-gpu to force one)
import { criticalStepsBatch, requirePositiveInteger, rewardBatch } from '@parl/core';
import { criticalStepsKernel, initBackend, rewardKernel } from '@parl/gpu';

const arg = process.argv[2] ?? '16384';
const B = requirePositiveInteger(/^\d+$/.test(arg) ? Number(arg) : arg, 'episodes'); // episodes
const T = 8; // stage capacity
const N = 32; // sub-agent capacity per stage

const selection = await initBackend();
console.log(`backend: ${selection.backend} (tfjs "${selection.tfjsBackend}")`);
for (const s of selection.skipped) console.log(`  skipped ${s.backend}: ${s.reason.split('\n')[0]}`);

// A deterministic batch: per-episode counts and steps, and a dense [B, T, N] of sub-agent steps.
let seed = 12345;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const numSubagents = new Float32Array(B);
const completedSubtasks = new Float32Array(B);
const rPerf = new Float32Array(B);
const trainingStep = new Float32Array(B);
const subSteps = new Float32Array(B * T * N);
const groupSizes = new Int32Array(B * T);
const numStages = new Int32Array(B);
for (let b = 0; b < B; b++) {
  numStages[b] = 1 + Math.floor(rand() * T);
  let launched = 0;
  for (let t = 0; t < numStages[b]; t++) {
    const k = Math.floor(rand() * (N + 1));
    groupSizes[b * T + t] = k;
    launched += k;
    for (let i = 0; i < k; i++) subSteps[(b * T + t) * N + i] = 1 + Math.floor(rand() * 12);
  }
  numSubagents[b] = launched;
  completedSubtasks[b] = Math.floor(launched * rand());
  rPerf[b] = rand();
  trainingStep[b] = Math.floor(rand() * 10_000);
}
const rewardInput = { numSubagents, completedSubtasks, rPerf, trainingStep };
const stagedInput = { batch: B, stages: T, width: N, subSteps, groupSizes, numStages };

// On the backend (float32), downloaded as typed arrays.
const onDevice = rewardKernel(rewardInput, {}, { output: 'array' });
const stepsOnDevice = criticalStepsKernel(stagedInput, { output: 'array' });
// The reference: @parl/core in float64 on the CPU.
const reference = rewardBatch(rewardInput);
const stepsReference = criticalStepsBatch(stagedInput);

const maxRelativeError = (a, b) => {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i])));
  return worst;
};
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
console.log(`episodes: ${B} (${T} stages × ${N} sub-agent slots)`);
console.log(`mean total_reward ${mean(onDevice.total_reward).toFixed(4)}, mean critical_steps ${mean(stepsOnDevice.critical_steps).toFixed(2)}, mean parallelism ${mean(stepsOnDevice.parallelism).toFixed(2)}x`);
const rewardError = maxRelativeError(onDevice.total_reward, reference.total_reward);
const stepsError = maxRelativeError(stepsOnDevice.critical_steps, stepsReference.critical_steps);
console.log(`max relative error vs @parl/core: total_reward ${rewardError.toExponential(2)}, critical_steps ${stepsError.toExponential(2)}`);
const ok = rewardError <= 1e-5 && stepsError <= 1e-5;
console.log(`matches @parl/core to float32 precision: ${ok ? 'yes' : 'no'}`);
if (!ok) process.exitCode = 1;
