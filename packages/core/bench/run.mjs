// Throughput of @parl/core's batched kernels beside a plain scan of the same typed array,
// measured in one process. Run: pnpm --filter @parl/core build && pnpm --filter @parl/core bench
import os from 'node:os';
import { criticalStepsBatch, allocateCriticalStepsBatchOutput, rewardBatch, allocateRewardBatchOutput, resolveRewardConfig } from '../dist/index.js';

const REPS = Number(process.env.BENCH_REPS ?? 9);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);

/** Deterministic uniform numbers in [0, 1) (mulberry32), so every run times the same input. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Median wall time in seconds of `fn` over REPS runs after WARMUP runs. */
function medianSeconds(fn) {
  for (let i = 0; i < WARMUP; i++) fn();
  const times = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The baseline: a plain `for` loop summing a typed array. */
let sink = 0;
function plainScan(arr) {
  let s = 0;
  for (let i = 0; i < arr.length; i++) s += arr[i];
  sink += s;
  return s;
}

const fmt = (x) => (x >= 1e9 ? `${(x / 1e9).toFixed(2)} G` : `${(x / 1e6).toFixed(1)} M`);

// --- rewardBatch at B = 10^6 ---------------------------------------------------------------
const B = 1_000_000;
const r = rng(1);
const numSubagents = new Float32Array(B);
const assignedSubtasks = new Float32Array(B);
const completedSubtasks = new Float32Array(B);
const rPerf = new Float32Array(B);
const trainingStep = new Float32Array(B);
for (let i = 0; i < B; i++) {
  const n = Math.floor(r() * 120);
  numSubagents[i] = n;
  assignedSubtasks[i] = n;
  completedSubtasks[i] = Math.floor(r() * (n + 1));
  rPerf[i] = r();
  trainingStep[i] = Math.floor(r() * 12000);
}
const config = resolveRewardConfig({});
const rewardOut = allocateRewardBatchOutput(B);
const rewardInput = { numSubagents, assignedSubtasks, completedSubtasks, rPerf, trainingStep };
const rewardSharedStep = { numSubagents, assignedSubtasks, completedSubtasks, rPerf };
const tRewardScan = medianSeconds(() => plainScan(rPerf));
const tReward = medianSeconds(() => rewardBatch(rewardInput, config, rewardOut));
const tRewardShared = medianSeconds(() => rewardBatch(rewardSharedStep, { ...config, step: 5000 }, rewardOut));

// --- criticalStepsBatch on [B, T, N] = [10^4, 10, 100] -------------------------------------
const CB = 10_000;
const T = 10;
const N = 100;
const subSteps = new Float32Array(CB * T * N);
const rc = rng(2);
for (let i = 0; i < subSteps.length; i++) subSteps[i] = Math.floor(rc() * 20);
const groupSizes = new Int32Array(CB * T);
let raggedElements = 0;
for (let i = 0; i < groupSizes.length; i++) {
  const k = Math.floor(rc() * (N + 1));
  groupSizes[i] = k;
  raggedElements += k;
}
const fullElements = CB * T * N;
const csOut = allocateCriticalStepsBatchOutput(CB);
const full = { batch: CB, stages: T, width: N, subSteps };
const ragged = { batch: CB, stages: T, width: N, subSteps, groupSizes };
const tCsScan = medianSeconds(() => plainScan(subSteps));
const tCsFull = medianSeconds(() => criticalStepsBatch(full, csOut));
const tCsRagged = medianSeconds(() => criticalStepsBatch(ragged, csOut));

// --- report ---------------------------------------------------------------------------------
const scanRate = fullElements / tCsScan;
const rewardScanRate = B / tRewardScan;
const lines = [
  `machine: ${os.cpus()[0]?.model ?? 'unknown cpu'}, nproc ${os.availableParallelism()}, node ${process.version}`,
  `median of ${REPS} runs after ${WARMUP} warm-up runs`,
  '',
  `plain scan, Float32Array[${B}] (rPerf)            ${fmt(rewardScanRate)}elements/s`,
  `rewardBatch, B = ${B}, step per episode       ${fmt(B / tReward)}episodes/s   ratio to scan ${((B / tReward) / rewardScanRate).toFixed(2)}`,
  `rewardBatch, B = ${B}, one shared step        ${fmt(B / tRewardShared)}episodes/s   ratio to scan ${((B / tRewardShared) / rewardScanRate).toFixed(2)}`,
  '',
  `plain scan, Float32Array[${fullElements}] (subSteps)   ${fmt(scanRate)}elements/s`,
  `criticalStepsBatch [${CB}, ${T}, ${N}] full groups   ${fmt(fullElements / tCsFull)}elements/s   ratio to scan ${((fullElements / tCsFull) / scanRate).toFixed(2)}`,
  `criticalStepsBatch [${CB}, ${T}, ${N}] ragged        ${fmt(raggedElements / tCsRagged)}elements/s   ratio to scan ${((raggedElements / tCsRagged) / scanRate).toFixed(2)}  (${raggedElements} elements inside groups)`,
];
console.log(lines.join('\n'));
if (Number.isNaN(sink)) console.log('');
