// parl sweep's scaling: the same 16 runs (4 λ1 schedules × 4 seeds) trained one after another
// (a pool of 1 thread), on a pool of THREADS threads (default 2), and through a Redis queue to
// one `parl worker` with THREADS threads; prints the wall times, the ratio parallel / serial and
// the queue's overhead per run ((queue − local pool) / runs). Checks that all three give
// byte-identical summary.json files.
// Run: pnpm --filter @parl/cli build && node packages/cli/bench/sweep.mjs   (STEPS=N THREADS=N)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSweep } from '../dist/index.js';

const STEPS = Number(process.env.STEPS ?? 60);
const THREADS = Number(process.env.THREADS ?? 2);
const PORT = Number(process.env.REDIS_PORT ?? 6399);
const BIN = fileURLToPath(new URL('../bin/parl.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'parl-sweep-bench-'));
const grid = {
  preset: 'parl',
  steps: STEPS,
  seeds: [1, 2, 3, 4],
  config: { tasksPerStep: 8, evaluation: { episodes: 64 } },
  grid: { lambda1: [`linear:0.3:0:${Math.round(STEPS * 0.66)}`, 'constant:0', 'constant:2', `cosine:0.3:0:${Math.round(STEPS * 0.66)}`] },
};

async function timed(label, options) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const out = await runSweep({ grid, ...options });
  const s = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  if (out.failed.length > 0) throw new Error(`${label}: ${out.failed.length} runs failed: ${out.failed[0].error}`);
  // CPU time of this process (its threads included); with --queue the training is in the worker process.
  const cores = options.queue === undefined ? `, ${cpuS.toFixed(1)} s CPU = ${(cpuS / s).toFixed(2)} cores busy on average` : '';
  console.log(`${label.padEnd(34)} ${s.toFixed(1).padStart(7)} s  (${out.trained} runs trained${cores})`);
  return { s, out };
}

const summaries = (out) => out.rows.map((r) => readFileSync(join(out.dir, 'runs', r.run_id, 'summary.json'), 'utf8'));

console.log(`16 runs of ${STEPS} steps; load average (1, 5, 15 min) at start ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const serial = await timed('one after another (1 thread)', { out: join(dir, 'serial'), threads: 1 });
const pool = await timed(`local pool (${THREADS} threads)`, { out: join(dir, 'pool'), threads: THREADS });
console.log(`parallel / serial: ${(pool.s / serial.s).toFixed(2)}×`);
if (JSON.stringify(summaries(pool.out)) !== JSON.stringify(summaries(serial.out))) throw new Error('the pool and the serial runs differ');

if (spawnSync('redis-server', ['--version']).status !== 0) {
  console.log('queue: skipped (no redis-server; apt-get install -y redis-server)');
} else {
  const redis = spawn('redis-server', ['--port', String(PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  const worker = spawn(process.execPath, [BIN, 'worker', '--queue', `redis://127.0.0.1:${PORT}`, '--threads', String(THREADS), '--quiet'], { stdio: 'inherit' });
  try {
    const queue = await timed(`queue, 1 worker (${THREADS} threads)`, { out: join(dir, 'queue'), queue: `redis://127.0.0.1:${PORT}` });
    console.log(`queue overhead per run: ${(((queue.s - pool.s) / 16) * 1000).toFixed(0)} ms (queue − local pool, over 16 runs)`);
    if (JSON.stringify(summaries(queue.out)) !== JSON.stringify(summaries(serial.out))) throw new Error('the queue and the serial runs differ');
  } finally {
    worker.kill('SIGTERM');
    redis.kill('SIGTERM');
  }
}
console.log(`summary.json identical in every mode: yes; load average at the end ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
rmSync(dir, { recursive: true, force: true });
