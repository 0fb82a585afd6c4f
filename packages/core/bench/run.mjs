// Throughput of @parl/core's batched kernels, every figure as ratios against baselines measured
// in the same run:
//
// - the JavaScript kernels (`kernel: 'js'`) and the WebAssembly SIMD kernels (`kernel: 'wasm'`),
//   the latter with inputs/outputs in WebAssembly memory (allocateCriticalStepsBatchInput,
//   allocateRewardBatchOutput: nothing copied) and with ordinary typed arrays (copied in/out);
// - a plain scan: a `for` loop summing a typed array of the same length, timed back to back with
//   each kernel run, so that the ratio compares runs under the same load;
// - the C roofline: a max-reduce over the critical-steps array (bench/roofline.c, built with
//   `cc -O3 -march=native` where `cc` exists; else a memory-bandwidth proxy, a copy of the array);
// - PyTorch: open-parl's tensor formulas (bench/torch_baseline.py) with Debian's python3-torch at
//   /usr/bin/python3, on one thread and on torch's default thread count; skipped with a message
//   where torch is missing.
//
// Run: pnpm --filter @parl/core build && pnpm --filter @parl/core bench
// Knobs: BENCH_REPS (default 11), BENCH_WARMUP (default 3), BENCH_PYTHON (default /usr/bin/python3).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  allocateCriticalStepsBatchInput,
  allocateCriticalStepsBatchOutput,
  allocateRewardBatchOutput,
  criticalStepsBatch,
  resolveBatchKernel,
  resolveRewardConfig,
  rewardBatch,
} from '../dist/index.js';

const REPS = Number(process.env.BENCH_REPS ?? 11);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const here = path.dirname(fileURLToPath(import.meta.url));
const loadAtStart = os.loadavg();

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

// --- inputs ---------------------------------------------------------------------------------
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
const rewardInput = { numSubagents, assignedSubtasks, completedSubtasks, rPerf, trainingStep };
const config = resolveRewardConfig({});
const shared = resolveRewardConfig({ step: 5000 });

const CB = 10_000;
const T = 10;
const N = 100;
const cells = CB * T * N;
const subSteps = new Float32Array(cells);
const rc = rng(2);
for (let i = 0; i < cells; i++) subSteps[i] = Math.floor(rc() * 20);
const groupSizes = new Int32Array(CB * T);
let inGroups = 0;
for (let i = 0; i < groupSizes.length; i++) {
  const k = Math.floor(rc() * (N + 1));
  groupSizes[i] = k;
  inGroups += k;
}
// The same steps in WebAssembly memory, read there by the SIMD kernel.
const inPlace = allocateCriticalStepsBatchInput(CB, T, N, 'wasm');
inPlace.subSteps.set(subSteps);

// --- JavaScript and WebAssembly kernels, each paired with the plain scan ---------------------
const wasmRunning = resolveBatchKernel('auto') === 'wasm';
const rows = [];
function measure(group, label, unit, kernel, items, scanned) {
  const result = paired(kernel, items, scanned);
  rows.push({ group, label, unit, ...result });
  return result;
}

const rewardOutInPlace = allocateRewardBatchOutput(B, 'wasm');
const rewardOutPlain = allocateRewardBatchOutput(B, 'js');
const rewardJs = measure('reward', 'rewardBatch JS, a step per episode', 'episodes', () => rewardBatch({ ...rewardInput, kernel: 'js' }, config, rewardOutPlain), B, rPerf);
const rewardWasm = measure('reward', 'rewardBatch WASM, a step per episode, out in wasm memory', 'episodes', () => rewardBatch({ ...rewardInput, kernel: 'wasm' }, config, rewardOutInPlace), B, rPerf);
measure('reward', 'rewardBatch WASM, a step per episode, out copied', 'episodes', () => rewardBatch({ ...rewardInput, kernel: 'wasm' }, config, rewardOutPlain), B, rPerf);
measure('reward', 'rewardBatch JS, one shared step', 'episodes', () => rewardBatch({ ...rewardInput, kernel: 'js' }, shared, rewardOutPlain), B, rPerf);
measure('reward', 'rewardBatch WASM, one shared step, out in wasm memory', 'episodes', () => rewardBatch({ ...rewardInput, kernel: 'wasm' }, shared, rewardOutInPlace), B, rPerf);

const csOut = allocateCriticalStepsBatchOutput(CB);
const shape = `[${CB}, ${T}, ${N}]`;
const full = { batch: CB, stages: T, width: N, subSteps };
const criticalJs = measure('critical', `criticalStepsBatch JS ${shape} full`, 'elements', () => criticalStepsBatch({ ...full, kernel: 'js' }, csOut), cells, subSteps);
const criticalWasm = measure('critical', `criticalStepsBatch WASM ${shape} full, steps in wasm memory`, 'elements', () => criticalStepsBatch({ ...inPlace, kernel: 'wasm' }, csOut), cells, subSteps);
measure('critical', `criticalStepsBatch WASM ${shape} full, steps copied in`, 'elements', () => criticalStepsBatch({ ...full, kernel: 'wasm' }, csOut), cells, subSteps);
const raggedJs = measure('critical', `criticalStepsBatch JS ${shape} ragged`, 'elements', () => criticalStepsBatch({ ...full, groupSizes, kernel: 'js' }, csOut), cells, subSteps);
const raggedWasm = measure('critical', `criticalStepsBatch WASM ${shape} ragged, steps in wasm memory`, 'elements', () => criticalStepsBatch({ ...inPlace, groupSizes, kernel: 'wasm' }, csOut), cells, subSteps);

// --- the C roofline (or a memory-bandwidth proxy) -------------------------------------------
function cRoofline() {
  const hasCc = spawnSync('cc', ['--version'], { encoding: 'utf8' }).status === 0;
  if (!hasCc) {
    // Proxy: copying the array (one read and one write of each element), as elements/s.
    const copy = new Float32Array(cells);
    for (let i = 0; i < WARMUP; i++) copy.set(subSteps);
    const rate = median(Array.from({ length: REPS }, () => cells / seconds(() => copy.set(subSteps))));
    return { rate, what: 'memory-bandwidth proxy (no cc): copying the [10^4, 10, 100] float32 array, elements/s' };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parl-roofline-'));
  try {
    const binary = path.join(dir, 'roofline');
    const build = spawnSync('cc', ['-O3', '-march=native', '-o', binary, path.join(here, 'roofline.c')], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`cc failed: ${build.stderr}`);
    const run = spawnSync(binary, [String(cells), String(REPS), String(WARMUP)], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`roofline failed: ${run.stderr}`);
    return { rate: Number(run.stdout.trim().split(' ')[0]), what: 'C max-reduce (bench/roofline.c, cc -O3 -march=native) over the same 10^7 float32 steps' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const roofline = cRoofline();

// --- PyTorch ----------------------------------------------------------------------------------
function pytorch() {
  const run = spawnSync(PYTHON, [path.join(here, 'torch_baseline.py'), String(REPS), String(WARMUP)], { encoding: 'utf8' });
  if (run.error !== undefined) return { skipped: `${PYTHON} not found (${run.error.message})` };
  if (run.status !== 0) {
    const missing = /No module named 'torch'/.test(run.stderr);
    return {
      skipped: missing
        ? `${PYTHON} has no torch: install Debian's python3-torch (apt-get install -y python3-torch)`
        : `torch_baseline.py failed: ${run.stderr.trim().split('\n').pop()}`,
    };
  }
  return JSON.parse(run.stdout);
}
const torch = pytorch();

// --- report ---------------------------------------------------------------------------------
const loadAtEnd = os.loadavg();
console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown cpu'}, nproc ${os.availableParallelism()}, node ${process.version}`);
console.log(`load average (1 min) ${loadAtStart[0].toFixed(2)} at start, ${loadAtEnd[0].toFixed(2)} at end; WebAssembly SIMD: ${wasmRunning ? 'yes' : 'no'}`);
console.log(`medians of ${REPS} back-to-back (scan, kernel) pairs after ${WARMUP} warm-up pairs`);
console.log('');
const header = `${'kernel'.padEnd(62)} ${'rate'.padEnd(20)} ${'÷ scan'.padStart(7)} ${'÷ JS kernel'.padStart(12)}`;
for (const group of ['reward', 'critical']) {
  console.log(header);
  const base = group === 'reward' ? rewardJs : criticalJs;
  for (const row of rows.filter((x) => x.group === group)) {
    const baseOf = row.label.includes('ragged') ? raggedJs : base;
    const perScan = row.ratio.toFixed(2).padStart(7);
    console.log(`${row.label.padEnd(62)} ${`${fmt(row.rate)}${row.unit}/s`.padEnd(20)} ${perScan} ${(row.rate / baseOf.rate).toFixed(2).padStart(12)}`);
  }
  console.log(`${'plain scan (median over the rows above)'.padEnd(62)} ${`${fmt(median(rows.filter((x) => x.group === group).map((x) => x.scan)))}elements/s`}`);
  console.log('');
}
console.log(`ragged: group sizes uniform in 0..${N}, ${inGroups} of ${cells} entries inside groups; ragged rates count every entry of the array`);
console.log('');
console.log(`roofline: ${roofline.what}: ${fmt(roofline.rate)}elements/s`);
console.log(`  criticalStepsBatch WASM full, steps in wasm memory: ${((criticalWasm.rate / roofline.rate) * 100).toFixed(1)} % of it (target ≥ 50 %); JS kernel ${((criticalJs.rate / roofline.rate) * 100).toFixed(1)} %`);
console.log('');
if ('skipped' in torch) {
  console.log(`PyTorch baseline skipped: ${torch.skipped}`);
} else {
  console.log(`PyTorch ${torch.torch} (open-parl's formulas, float32 tensors, bench/torch_baseline.py via ${PYTHON}; default threads ${torch.default_threads}):`);
  for (const run of torch.runs) {
    console.log(
      `  ${run.threads} thread${run.threads === 1 ? ' ' : 's'}: critical steps ${fmt(run.critical_steps)}elements/s (all fields ${fmt(run.critical_all_fields)}elements/s), reward ${fmt(run.reward)}episodes/s`,
    );
    console.log(
      `    ÷ PyTorch: critical steps WASM ${(criticalWasm.rate / run.critical_steps).toFixed(2)}× (target ≥ 2.5), WASM ragged ${(raggedWasm.rate / run.critical_steps).toFixed(2)}×, JS ${(criticalJs.rate / run.critical_steps).toFixed(2)}×, plain scan ${(criticalJs.scan / run.critical_steps).toFixed(2)}×; ` +
        `reward WASM ${(rewardWasm.rate / run.reward).toFixed(2)}× (target ≥ 3), JS ${(rewardJs.rate / run.reward).toFixed(2)}×`,
    );
  }
}
if (Number.isNaN(sink)) console.log('(scan sink is NaN)');
