// Throughput of @parl/core's batched kernels, every figure as ratios against baselines measured
// in the same run:
//
// - the JavaScript kernels (`kernel: 'js'`) and the WebAssembly SIMD kernels (`kernel: 'wasm'`),
//   the latter with inputs/outputs in WebAssembly memory (allocateCriticalStepsBatchInput,
//   allocateRewardBatch: nothing copied) and with ordinary typed arrays (copied in/out);
// - a plain scan: a `for` loop summing a typed array of the same length, timed back to back with
//   each kernel run, so that the ratio compares runs under the same load;
// - the C roofline: a max-reduce over the critical-steps array (bench/roofline.c, built with
//   `cc -O3 -march=native` where `cc` exists; else a memory-bandwidth proxy, a copy of the array),
//   each measurement paired with the kernels';
// - PyTorch: open-parl's tensor formulas (bench/torch_baseline.py) with Debian's python3-torch at
//   /usr/bin/python3, on one thread, torch's default thread count and one per CPU, each timing
//   paired with the WebAssembly kernel's; skipped with a message where torch is missing.
//
// The roofline shares and the one-thread PyTorch ratios are also given by CPU time (this process's,
// the C program's and the Python thread's), which leaves out the time each side waited for a core
// on a shared machine; the targets are read on the wall-time figures.
//
// With BASELINE=/path/to/old/dist/index.js, that build's WebAssembly kernels are timed too, in
// the same pairs (roofline and PyTorch), so that old and new come from one run.
//
// Run: pnpm --filter @parl/core build && pnpm --filter @parl/core bench
// Knobs: BENCH_REPS (default 11), BENCH_WARMUP (default 3), BENCH_PYTHON (default /usr/bin/python3),
// BASELINE (another build's dist/index.js).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  allocateCriticalStepsBatchInput,
  allocateRewardBatch,
  allocateCriticalStepsBatchOutput,
  allocateRewardBatchOutput,
  criticalStepsBatch,
  resolveBatchKernel,
  resolveRewardConfig,
  rewardBatch,
  rewardTotalBatch,
} from '../dist/index.js';

const REPS = Number(process.env.BENCH_REPS ?? 11);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const BASELINE = process.env.BASELINE;
const baseline = BASELINE ? await import(pathToFileURL(BASELINE).href) : undefined;
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

/** Wall and CPU seconds of one call (the CPU time leaves out time spent waiting for a core). */
function wallAndCpu(fn) {
  const c0 = process.cpuUsage();
  const wall = seconds(fn);
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1e6 };
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
const wasmRunning = resolveBatchKernel('auto') === 'wasm';
if (!wasmRunning) {
  console.error('This runtime has no WebAssembly SIMD: the bench compares the WebAssembly kernels and cannot run.');
  process.exit(1);
}
const inPlace = allocateCriticalStepsBatchInput(CB, T, N, 'wasm');
inPlace.subSteps.set(subSteps);

// --- JavaScript and WebAssembly kernels, each paired with the plain scan ---------------------
const rows = [];
function measure(group, label, unit, kernel, items, scanned) {
  const result = paired(kernel, items, scanned);
  rows.push({ group, label, unit, ...result });
  return result;
}

// The same reward inputs and the outputs together in WebAssembly memory (nothing copied), and
// outputs alone there (inputs copied in), and ordinary arrays (copied in and out).
const together = allocateRewardBatch(B, 'float32', 'wasm');
for (const key of Object.keys(rewardInput)) together.input[key].set(rewardInput[key]);
const rewardOutInPlace = allocateRewardBatchOutput(B, 'wasm');
const rewardOutPlain = allocateRewardBatchOutput(B, 'js');
const rewardJs = measure('reward', 'rewardBatch JS, a step per episode', 'episodes', () => rewardBatch({ ...rewardInput, kernel: 'js' }, config, rewardOutPlain), B, rPerf);
const rewardWasmKernel = () => rewardBatch({ ...together.input, kernel: 'wasm' }, config, together.out);
const rewardWasm = measure('reward', 'rewardBatch WASM, a step per episode, all in wasm memory', 'episodes', rewardWasmKernel, B, rPerf);
measure('reward', 'rewardBatch WASM, a step per episode, inputs copied in', 'episodes', () => rewardBatch({ ...rewardInput, kernel: 'wasm' }, config, rewardOutInPlace), B, rPerf);
measure('reward', 'rewardBatch WASM, a step per episode, inputs and out copied', 'episodes', () => rewardBatch({ ...rewardInput, kernel: 'wasm' }, config, rewardOutPlain), B, rPerf);
// A bound on the in-place call: writing the nine float64 outputs alone (fill), no reads, no arithmetic.
measure('reward', 'memory bound: fill the 9 float64 outputs, nothing else', 'episodes', () => {
  for (const key of Object.keys(together.out)) together.out[key].fill(0.5);
}, B, rPerf);
measure('reward', 'memory bound: fill the float64 total alone, nothing else', 'episodes', () => together.out.total_reward.fill(0.5), B, rPerf);
const rewardTotalKernel = () => rewardTotalBatch({ ...together.input, kernel: 'wasm' }, config, together.out.total_reward);
measure('reward', 'rewardTotalBatch WASM (total only), a step per episode, in wasm memory', 'episodes', rewardTotalKernel, B, rPerf);
measure('reward', 'rewardBatch JS, one shared step', 'episodes', () => rewardBatch({ ...rewardInput, kernel: 'js' }, shared, rewardOutPlain), B, rPerf);
measure('reward', 'rewardBatch WASM, one shared step, all in wasm memory', 'episodes', () => rewardBatch({ ...together.input, kernel: 'wasm' }, shared, together.out), B, rPerf);

const csOut = allocateCriticalStepsBatchOutput(CB);
const shape = `[${CB}, ${T}, ${N}]`;
const full = { batch: CB, stages: T, width: N, subSteps };
const criticalJs = measure('critical', 'criticalStepsBatch JS, full groups', 'elements', () => criticalStepsBatch({ ...full, kernel: 'js' }, csOut), cells, subSteps);
const criticalWasm = measure('critical', 'criticalStepsBatch WASM, full groups, steps in wasm memory', 'elements', () => criticalStepsBatch({ ...inPlace, kernel: 'wasm' }, csOut), cells, subSteps);
measure('critical', 'criticalStepsBatch WASM, full groups, steps copied in', 'elements', () => criticalStepsBatch({ ...full, kernel: 'wasm' }, csOut), cells, subSteps);
const raggedJs = measure('critical', 'criticalStepsBatch JS, ragged', 'elements', () => criticalStepsBatch({ ...full, groupSizes, kernel: 'js' }, csOut), cells, subSteps);
const raggedWasm = measure('critical', 'criticalStepsBatch WASM, ragged, steps in wasm memory', 'elements', () => criticalStepsBatch({ ...inPlace, groupSizes, kernel: 'wasm' }, csOut), cells, subSteps);

// The baseline build's WebAssembly kernels on the same inputs, in its own WebAssembly memory.
let baselineCritical;
let baselineReward;
if (baseline !== undefined) {
  const baseInPlace = baseline.allocateCriticalStepsBatchInput(CB, T, N, 'wasm');
  baseInPlace.subSteps.set(subSteps);
  const baseTogether = baseline.allocateRewardBatch(B, 'float32', 'wasm');
  for (const key of Object.keys(rewardInput)) baseTogether.input[key].set(rewardInput[key]);
  baselineCritical = () => baseline.criticalStepsBatch({ ...baseInPlace, kernel: 'wasm' }, csOut);
  // its own resolved config: a config resolved by another build takes its slower general path
  const baseConfig = baseline.resolveRewardConfig({});
  baselineReward = () => baseline.rewardBatch({ ...baseTogether.input, kernel: 'wasm' }, baseConfig, baseTogether.out);
  measure('reward', 'BASELINE rewardBatch WASM, a step per episode, all in wasm memory', 'episodes', baselineReward, B, rPerf);
  measure('critical', 'BASELINE criticalStepsBatch WASM, full groups, steps in wasm memory', 'elements', baselineCritical, cells, subSteps);
  measure('critical', 'BASELINE criticalStepsBatch WASM, ragged, steps in wasm memory', 'elements', () => baseline.criticalStepsBatch({ ...baseInPlace, groupSizes, kernel: 'wasm' }, csOut), cells, subSteps);
}

// --- the C roofline (or a memory-bandwidth proxy), each measurement paired with the kernel's --
/** Build bench/roofline.c; returns a function measuring it once (elements/s) and a clean-up, or the proxy. */
function startRoofline() {
  const hasCc = spawnSync('cc', ['--version'], { encoding: 'utf8' }).status === 0;
  if (!hasCc) {
    // Proxy: copying the array (one read and one write of each element), as elements/s.
    const copy = new Float32Array(cells);
    copy.set(subSteps);
    return {
      what: 'memory-bandwidth proxy (no cc): copying the [10^4, 10, 100] float32 array, elements/s',
      rate: () => {
        const t = wallAndCpu(() => copy.set(subSteps));
        return { wall: cells / t.wall, cpu: cells / t.cpu };
      },
      stop: () => {},
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parl-roofline-'));
  const binary = path.join(dir, 'roofline');
  const build = spawnSync('cc', ['-O3', '-march=native', '-o', binary, path.join(here, 'roofline.c')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`cc failed: ${build.stderr}`);
  return {
    what: 'C max-reduce (bench/roofline.c, cc -O3 -march=native) over the same 10^7 float32 steps',
    // one process per measurement: the median of 3 passes after 1 warm-up pass, by wall and by CPU time
    rate: () => {
      const run = spawnSync(binary, [String(cells), '3', '1'], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`roofline failed: ${run.stderr}`);
      const [wall, , cpu] = run.stdout.trim().split(' ').map(Number);
      return { wall, cpu };
    },
    stop: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const rooflineRun = startRoofline();
const criticalWasmKernel = () => criticalStepsBatch({ ...inPlace, kernel: 'wasm' }, csOut);
// Shares by wall time (the target's figure) and by CPU time (on a shared machine, wall time also
// counts the time each side waited for a core).
const shares = { rate: [], cpuRate: [], wasm: [], js: [], baseline: [], wasmCpu: [], jsCpu: [], baselineCpu: [] };
try {
  for (let i = 0; i < REPS; i++) {
    const roof = rooflineRun.rate();
    const wasm = wallAndCpu(criticalWasmKernel);
    const js = wallAndCpu(() => criticalStepsBatch({ ...full, kernel: 'js' }, csOut));
    shares.rate.push(roof.wall);
    shares.cpuRate.push(roof.cpu);
    shares.wasm.push(cells / wasm.wall / roof.wall);
    shares.js.push(cells / js.wall / roof.wall);
    shares.wasmCpu.push(cells / wasm.cpu / roof.cpu);
    shares.jsCpu.push(cells / js.cpu / roof.cpu);
    if (baselineCritical !== undefined) {
      const base = wallAndCpu(baselineCritical);
      shares.baseline.push(cells / base.wall / roof.wall);
      shares.baselineCpu.push(cells / base.cpu / roof.cpu);
    }
  }
} finally {
  rooflineRun.stop();
}
const roofline = Object.fromEntries(Object.entries(shares).map(([key, xs]) => [key, xs.length > 0 ? median(xs) : undefined]));

// --- PyTorch, each timing paired with the WebAssembly kernel's ----------------------------
/** Start bench/torch_baseline.py; resolves to its header and a function timing one figure, or to a reason to skip. */
async function startTorch() {
  const child = spawn(PYTHON, [path.join(here, 'torch_baseline.py')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const spawnError = new Promise((resolve) => child.on('error', (err) => resolve(err)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await Promise.race([lines.next(), spawnError]);
  if (first instanceof Error) return { skipped: `${PYTHON} not found (${first.message})` };
  if (first.done) {
    await new Promise((resolve) => (child.exitCode === null ? child.on('exit', resolve) : resolve()));
    return {
      skipped: /No module named 'torch'/.test(stderr)
        ? `${PYTHON} has no torch: install Debian's python3-torch (apt-get install -y python3-torch)`
        : `torch_baseline.py failed: ${stderr.trim().split('\n').pop()}`,
    };
  }
  const time = async (figure, threads) => {
    child.stdin.write(`${figure} ${threads}\n`);
    const next = await lines.next();
    if (next.done) throw new Error(`torch_baseline.py stopped: ${stderr}`);
    const [wall, cpu] = next.value.split(' ').map(Number);
    return { wall, cpu };
  };
  return { header: JSON.parse(first.value), time, stop: () => child.stdin.end() };
}

/**
 * PyTorch's `figure` on `threads` threads against `kernel` (handling `items` items), back to
 * back, REPS times after WARMUP rounds: median rates and the median of the per-pair ratios.
 */
async function pairedWithTorch(torch, figure, threads, kernel, items, baselineKernel) {
  for (let i = 0; i < WARMUP; i++) {
    await torch.time(figure, threads);
    kernel();
    baselineKernel?.();
  }
  const torchRates = [];
  const rates = [];
  const ratios = [];
  const baselineRatios = [];
  const cpuRatios = [];
  const baselineCpuRatios = [];
  for (let i = 0; i < REPS; i++) {
    const tt = await torch.time(figure, threads);
    const tk = wallAndCpu(kernel);
    torchRates.push(items / tt.wall);
    rates.push(items / tk.wall);
    ratios.push(tt.wall / tk.wall);
    if (tt.cpu !== undefined) cpuRatios.push(tt.cpu / tk.cpu);
    if (baselineKernel !== undefined) {
      const tb = wallAndCpu(baselineKernel);
      baselineRatios.push(tt.wall / tb.wall);
      if (tt.cpu !== undefined) baselineCpuRatios.push(tt.cpu / tb.cpu);
    }
  }
  const medianOf = (xs) => (xs.length > 0 ? median(xs) : undefined);
  return {
    torch: median(torchRates),
    rate: median(rates),
    ratio: median(ratios),
    baselineRatio: medianOf(baselineRatios),
    cpuRatio: medianOf(cpuRatios),
    baselineCpuRatio: medianOf(baselineCpuRatios),
  };
}

const torch = await startTorch();
const torchRows = [];
if (!('skipped' in torch)) {
  const threadCounts = [...new Set([1, torch.header.default_threads, torch.header.cpus])].sort((a, b) => a - b);
  // PyTorch's critical steps against criticalStepsBatch; its every-field reward against
  // rewardBatch (the same nine outputs); its total-only reward against rewardTotalBatch. The
  // baseline build (which has no rewardTotalBatch) runs rewardBatch for both reward figures.
  for (const threads of threadCounts) {
    for (const [figure, label, kernel, items, baselineKernel] of [
      ['critical_steps', 'critical steps (max, then sum over stages)', criticalWasmKernel, cells, baselineCritical],
      ['critical_all_fields', 'critical steps, total steps, parallelism', criticalWasmKernel, cells, baselineCritical],
      ['reward_all_fields', 'reward, every rewardBatch field in float64', rewardWasmKernel, B, baselineReward],
      ['reward', 'reward, total only (rewardTotalBatch)', rewardTotalKernel, B, baselineReward],
    ]) {
      torchRows.push({ threads, figure, label, ...(await pairedWithTorch(torch, figure, threads, kernel, items, baselineKernel)) });
    }
  }
  torch.stop();
}

// --- report ---------------------------------------------------------------------------------
const loadAtEnd = os.loadavg();
console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown cpu'}, nproc ${os.availableParallelism()}, node ${process.version}`);
console.log(`load average (1 min) ${loadAtStart[0].toFixed(2)} at start, ${loadAtEnd[0].toFixed(2)} at end`);
console.log(`medians of ${REPS} back-to-back (scan, kernel) pairs after ${WARMUP} warm-up pairs`);
console.log('');
const header = `${'kernel'.padEnd(76)} ${'rate'.padEnd(20)} ${'÷ scan'.padStart(7)} ${'÷ JS kernel'.padStart(12)}`;
for (const group of ['reward', 'critical']) {
  console.log(header);
  const base = group === 'reward' ? rewardJs : criticalJs;
  for (const row of rows.filter((x) => x.group === group)) {
    const baseOf = row.label.includes('ragged') ? raggedJs : base;
    if (row.label.startsWith('BASELINE')) row.label = row.label.replace('BASELINE', 'baseline build:');
    const perScan = row.ratio.toFixed(2).padStart(7);
    console.log(`${row.label.padEnd(76)} ${`${fmt(row.rate)}${row.unit}/s`.padEnd(20)} ${perScan} ${(row.rate / baseOf.rate).toFixed(2).padStart(12)}`);
  }
  console.log(`${'plain scan (median over the rows above)'.padEnd(76)} ${`${fmt(median(rows.filter((x) => x.group === group).map((x) => x.scan)))}elements/s`}`);
  console.log('');
}
console.log(`rewardBatch: B = ${B}; criticalStepsBatch: [B, T, N] = ${shape}, ragged: group sizes uniform in 0..${N}, ${inGroups} of ${cells} entries inside groups; ragged rates count every entry of the array`);
console.log('');
const pct = (x) => `${(x * 100).toFixed(1)} %`;
console.log(`roofline: ${rooflineRun.what}: ${fmt(roofline.rate)}elements/s (by CPU time ${fmt(roofline.cpuRate)}elements/s)`);
console.log(
  `  criticalStepsBatch WASM full, steps in wasm memory: ${pct(roofline.wasm)} of it (target ≥ 50 %); JS kernel ${pct(roofline.js)}` +
    ` (medians of ${REPS} back-to-back (roofline, WASM, JS${baseline === undefined ? '' : ', baseline'}) rounds)`,
);
console.log(`  the same by CPU time: WASM ${pct(roofline.wasmCpu)}, JS ${pct(roofline.jsCpu)}`);
if (baseline !== undefined) {
  console.log(`  baseline build (${BASELINE}) WASM full, in the same rounds: ${pct(roofline.baseline)} (by CPU time ${pct(roofline.baselineCpu)})`);
}
console.log('');
if ('skipped' in torch) {
  console.log(`PyTorch baseline skipped: ${torch.skipped}`);
} else {
  console.log(
    `PyTorch ${torch.header.torch} (open-parl's formulas, float32 tensors; bench/torch_baseline.py via ${PYTHON}; default threads ${torch.header.default_threads}),` +
      ' each timing paired with the WASM kernel (critical steps: steps in wasm memory, full groups; reward: a step per episode, all in wasm memory):',
  );
  for (const row of torchRows) {
    const unit = row.figure.startsWith('reward') ? 'episodes' : 'elements';
    const target = row.figure === 'critical_steps' ? ' (target ≥ 2.5)' : row.figure.startsWith('reward') ? ' (target ≥ 3)' : '';
    const before = row.baselineRatio === undefined ? '' : `; baseline build ${row.baselineRatio.toFixed(2)}`;
    const cpu =
      row.cpuRatio === undefined
        ? ''
        : `; by CPU time ${row.cpuRatio.toFixed(2)}${row.baselineCpuRatio === undefined ? '' : ` (baseline build ${row.baselineCpuRatio.toFixed(2)})`}`;
    console.log(
      `  ${row.threads} thread${row.threads === 1 ? ' ' : 's'} ${row.label.padEnd(44)} PyTorch ${`${fmt(row.torch)}${unit}/s`.padEnd(20)} WASM ${`${fmt(row.rate)}${unit}/s`.padEnd(20)} WASM ÷ PyTorch ${row.ratio.toFixed(2)}${target}${before}${cpu}`,
    );
  }
  const one = (figure) => torchRows.find((row) => row.threads === 1 && row.figure === figure);
  console.log(
    `  JS kernels ÷ PyTorch on 1 thread (medians of separate runs): critical steps ${(criticalJs.rate / one('critical_steps').torch).toFixed(2)}, ` +
      `plain scan ${(criticalJs.scan / one('critical_steps').torch).toFixed(2)}, reward ${(rewardJs.rate / one('reward_all_fields').torch).toFixed(2)} (every field)`,
  );
}
if (Number.isNaN(sink)) console.log('(scan sink is NaN)');
