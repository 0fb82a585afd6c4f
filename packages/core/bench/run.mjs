// Throughput of @parl/core's batched kernels beside a plain scan (a `for` loop summing the same
// typed array), measured in one process. Each repetition times the scan and the kernel back to
// back, so that the ratio compares runs under the same load; we print medians.
//
// Run: pnpm --filter @parl/core build && pnpm --filter @parl/core bench
// Knobs: BENCH_REPS (default 11), BENCH_WARMUP (default 3).
import os from 'node:os';
import {
  allocateCriticalStepsBatchOutput,
  allocateRewardBatchOutput,
  criticalStepsBatch,
  resolveRewardConfig,
  rewardBatch,
} from '../dist/index.js';

const REPS = Number(process.env.BENCH_REPS ?? 11);
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

function seconds(fn) {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The baseline: a plain `for` loop summing a typed array. */
let sink = 0;
function plainScan(arr) {
  let s = 0;
  for (let i = 0; i < arr.length; i++) s += arr[i];
  sink += s;
}

/**
 * Time `kernel` (which handles `items` items) against a plain scan of `scanned`, back to back,
 * REPS times after WARMUP rounds. Returns median rates (per second) and the median ratio.
 */
function paired(kernel, items, scanned) {
  for (let i = 0; i < WARMUP; i++) {
    plainScan(scanned);
    kernel();
  }
  const scanRates = [];
  const rates = [];
  const ratios = [];
  for (let i = 0; i < REPS; i++) {
    const ts = seconds(() => plainScan(scanned));
    const tk = seconds(kernel);
    scanRates.push(scanned.length / ts);
    rates.push(items / tk);
    ratios.push(items / tk / (scanned.length / ts));
  }
  return { scan: median(scanRates), rate: median(rates), ratio: median(ratios) };
}

const fmt = (x) => (x >= 1e9 ? `${(x / 1e9).toFixed(2)} G` : `${(x / 1e6).toFixed(1)} M`);
const row = (label, r, unit) =>
  `${label.padEnd(52)} ${`${fmt(r.rate)}${unit}/s`.padEnd(20)} plain scan ${`${fmt(r.scan)}elements/s`.padEnd(20)} ratio ${r.ratio.toFixed(2)}`;

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
const shared = resolveRewardConfig({ step: 5000 });
const rewardOut = allocateRewardBatchOutput(B);
const perEpisode = paired(
  () => rewardBatch({ numSubagents, assignedSubtasks, completedSubtasks, rPerf, trainingStep }, config, rewardOut),
  B,
  rPerf,
);
const oneStep = paired(() => rewardBatch({ numSubagents, assignedSubtasks, completedSubtasks, rPerf }, shared, rewardOut), B, rPerf);

// --- criticalStepsBatch on [B, T, N] = [10^4, 10, 100] -------------------------------------
const CB = 10_000;
const T = 10;
const N = 100;
const subSteps = new Float32Array(CB * T * N);
const rc = rng(2);
for (let i = 0; i < subSteps.length; i++) subSteps[i] = Math.floor(rc() * 20);
const groupSizes = new Int32Array(CB * T);
let inGroups = 0;
for (let i = 0; i < groupSizes.length; i++) {
  const k = Math.floor(rc() * (N + 1));
  groupSizes[i] = k;
  inGroups += k;
}
const cells = CB * T * N;
const csOut = allocateCriticalStepsBatchOutput(CB);
const full = paired(() => criticalStepsBatch({ batch: CB, stages: T, width: N, subSteps }, csOut), cells, subSteps);
const ragged = paired(() => criticalStepsBatch({ batch: CB, stages: T, width: N, subSteps, groupSizes }, csOut), inGroups, subSteps);
const raggedCells = { ...ragged, rate: (ragged.rate * cells) / inGroups, ratio: (ragged.ratio * cells) / inGroups };

// --- report ---------------------------------------------------------------------------------
console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown cpu'}, nproc ${os.availableParallelism()}, node ${process.version}, load ${os.loadavg()[0].toFixed(2)}`);
console.log(`medians of ${REPS} back-to-back (scan, kernel) pairs after ${WARMUP} warm-up pairs`);
console.log('');
console.log(row(`rewardBatch B = ${B}, a step per episode`, perEpisode, 'episodes'));
console.log(row(`rewardBatch B = ${B}, one shared step`, oneStep, 'episodes'));
console.log(row(`criticalStepsBatch [${CB}, ${T}, ${N}] full groups`, full, 'elements'));
console.log(row(`criticalStepsBatch [${CB}, ${T}, ${N}] ragged (in-group)`, ragged, 'elements'));
console.log(row(`criticalStepsBatch [${CB}, ${T}, ${N}] ragged (all cells)`, raggedCells, 'elements'));
console.log('');
console.log(`ragged: group sizes uniform in 0..${N}, ${inGroups} of ${cells} entries inside groups`);
if (Number.isNaN(sink)) console.log('(scan sink is NaN)');
