// Throughput of @parl/gpu's kernels on every backend available here, beside @parl/core's
// kernels on the same inputs, measured in one process; ratios are gpu-kernel / core throughput.
// Run: pnpm --filter @parl/core build && pnpm --filter @parl/gpu build && pnpm --filter @parl/gpu bench
// Sizes scale with BENCH_SCALE (default 1); repetitions with BENCH_REPS (default 5).
import os from 'node:os';
import { createRequire } from 'node:module';
import { criticalStepsBatch, heaviestPath, rewardBatch, resolveRewardConfig } from '@parl/core';
import { criticalStepsKernel, denseDags, heaviestPathKernel, initBackend, rewardKernel, smoothCriticalStepsKernel, tf } from '../dist/index.js';

const REPS = Number(process.env.BENCH_REPS ?? 5);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);

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

/** Median wall time in seconds of `fn` over REPS runs after one warm-up run. */
function medianSeconds(fn) {
  fn();
  const times = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M/s` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} k/s` : `${x.toFixed(0)} /s`);

// --- inputs -----------------------------------------------------------------------------------
const r = rng(7);
const RB = Math.round(200_000 * SCALE);
const reward = {
  numSubagents: new Float32Array(RB),
  assignedSubtasks: new Float32Array(RB),
  completedSubtasks: new Float32Array(RB),
  rPerf: new Float32Array(RB),
  trainingStep: new Float32Array(RB),
};
for (let i = 0; i < RB; i++) {
  const n = Math.floor(r() * 120);
  reward.numSubagents[i] = n;
  reward.assignedSubtasks[i] = n;
  reward.completedSubtasks[i] = Math.floor(r() * (n + 1));
  reward.rPerf[i] = r();
  reward.trainingStep[i] = Math.floor(r() * 12000);
}
const rewardConfig = resolveRewardConfig({});

const CB = Math.round(4_096 * SCALE);
const T = 16;
const N = 32;
const staged = {
  batch: CB,
  stages: T,
  width: N,
  subSteps: new Float32Array(CB * T * N),
  groupSizes: new Int32Array(CB * T),
  mainSteps: new Float32Array(CB * T).fill(1),
  numStages: new Int32Array(CB),
};
for (let i = 0; i < staged.subSteps.length; i++) staged.subSteps[i] = Math.floor(r() * 20);
for (let i = 0; i < staged.groupSizes.length; i++) staged.groupSizes[i] = Math.floor(r() * (N + 1));
for (let b = 0; b < CB; b++) staged.numStages[b] = 1 + Math.floor(r() * T);

const DB = Math.round(256 * SCALE);
const V = 32;
const dags = [];
for (let b = 0; b < DB; b++) {
  const nodes = [];
  for (let i = 0; i < V; i++) {
    const deps = [];
    for (let j = 0; j < i; j++) if (r() < 0.15) deps.push(`n${j}`);
    nodes.push({ id: `n${i}`, weight: Math.floor(r() * 10), deps });
  }
  dags.push(nodes);
}
const dense = denseDags(dags, V);

// --- measurements -----------------------------------------------------------------------------
const rows = [];
function record(kernel, backend, mode, items, seconds, baseline) {
  const throughput = items / seconds;
  rows.push({ kernel, backend, mode, throughput, ratio: baseline === undefined ? undefined : throughput / baseline });
  return throughput;
}

const coreReward = record('reward', '@parl/core rewardBatch', 'typed arrays', RB, medianSeconds(() => rewardBatch(reward, rewardConfig)));
const coreCritical = record('critical steps', '@parl/core criticalStepsBatch', 'typed arrays', CB, medianSeconds(() => criticalStepsBatch(staged)));
const coreDag = record('heaviest path', '@parl/core heaviestPath (one DAG at a time)', 'node lists', DB, medianSeconds(() => { for (const d of dags) heaviestPath(d); }));

const require = createRequire(import.meta.url);
const present = (pkg) => { try { require.resolve(pkg); return true; } catch { return false; } };
const backends = [];
if (present('@tensorflow/tfjs-node-gpu')) backends.push('tensorflow-gpu');
else if (present('@tensorflow/tfjs-node')) backends.push('tensorflow');
backends.push('wasm', 'cpu');

for (const backend of backends) {
  const sel = await initBackend({ force: backend });
  const name = `${sel.backend}`;
  record('reward', name, 'arrays in/out', RB, medianSeconds(() => rewardKernel(reward, rewardConfig, { output: 'array' })), coreReward);
  record('critical steps', name, 'arrays in/out', CB, medianSeconds(() => criticalStepsKernel(staged, { output: 'array' })), coreCritical);
  // Inputs already on the device, results left there (one small read forces completion).
  const resident = tf.tidy(() => ({
    batch: CB, stages: T, width: N,
    subSteps: tf.tensor3d(staged.subSteps, [CB, T, N]),
    groupSizes: tf.tensor2d(staged.groupSizes, [CB, T], 'int32'),
    mainSteps: tf.tensor2d(staged.mainSteps, [CB, T]),
    numStages: tf.tensor1d(staged.numStages, 'int32'),
  }));
  tf.keep(resident.subSteps); tf.keep(resident.groupSizes); tf.keep(resident.mainSteps); tf.keep(resident.numStages);
  record('critical steps', name, 'tensors resident', CB, medianSeconds(() => {
    const out = criticalStepsKernel(resident);
    out.critical_steps.dataSync();
    for (const t of Object.values(out)) t.dispose();
  }), coreCritical);
  record('smooth critical steps (τ = 0.1)', name, 'arrays in/out', CB, medianSeconds(() => smoothCriticalStepsKernel(staged, 0.1, { output: 'array' })), coreCritical);
  record('heaviest path', name, 'arrays in/out, cycle check', DB, medianSeconds(() => heaviestPathKernel(dense, { output: 'array' })), coreDag);
  record('heaviest path', name, 'arrays in/out, no cycle check', DB, medianSeconds(() => heaviestPathKernel(dense, { output: 'array', checkCycles: false })), coreDag);
  for (const t of [resident.subSteps, resident.groupSizes, resident.mainSteps, resident.numStages]) t.dispose();
}

console.log(`@parl/gpu bench — Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, REPS=${REPS}, SCALE=${SCALE}`);
console.log(`reward: B = ${RB}; critical steps: [B, T, N] = [${CB}, ${T}, ${N}]; heaviest path: B = ${DB} DAGs of V = ${V} nodes`);
console.log('ratio = throughput / @parl/core throughput on the same input (> 1: faster than core)\n');
console.log('| kernel | backend | mode | throughput (items/s) | ratio vs core |');
console.log('| --- | --- | --- | ---: | ---: |');
for (const row of rows) {
  console.log(`| ${row.kernel} | ${row.backend} | ${row.mode} | ${fmt(row.throughput)} | ${row.ratio === undefined ? 'baseline' : `${row.ratio.toFixed(2)}×`} |`);
}
