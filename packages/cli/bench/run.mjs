// Throughput of `parl reward` / `parl critical-steps` on JSONL, against baselines measured in the
// same run on the same file:
//   parse+stringify: readline + JSON.parse + JSON.stringify per line (the I/O floor, no PARL work)
//   core only:       core's labelReward over the already-parsed records (no I/O)
// Run: pnpm --filter @parl/cli build && pnpm --filter @parl/cli bench   (RECORDS=N to resize)
import { createReadStream, createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { labelReward, resolveRewardConfig } from '@parl/core';
import { runCli } from '../dist/index.js';

const RECORDS = Number(process.env.RECORDS ?? 100_000);
const REPEATS = 3;
const dir = mkdtempSync(join(tmpdir(), 'parl-cli-bench-'));
const input = join(dir, 'episodes.jsonl');

function record(i) {
  const stages = [];
  for (let t = 0; t < 1 + (i % 4); t++) stages.push({ main_steps: 1, sub_steps: Array.from({ length: i % 6 }, (_, k) => 1 + ((i + k) % 9)) });
  return { id: `task-${i}`, training_step: i % 10000, success: i % 3 !== 0, quality: 0.5 + (i % 5) / 10, stages };
}
const lines = [];
for (let i = 0; i < RECORDS; i++) lines.push(JSON.stringify(record(i)));
writeFileSync(input, `${lines.join('\n')}\n`);
const parsed = lines.map((l) => JSON.parse(l));

const devNullIo = () => ({ stdin: process.stdin, stdout: createWriteStream('/dev/null'), stderr: process.stderr, stderrIsTTY: false });

async function parseStringify() {
  const out = createWriteStream('/dev/null');
  const rl = createInterface({ input: createReadStream(input), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!out.write(`${JSON.stringify(JSON.parse(line))}\n`)) await once(out, 'drain');
  }
  out.end();
}

async function coreOnly() {
  const cfg = resolveRewardConfig({});
  let sink = 0;
  for (let i = 0; i < parsed.length; i++) sink += labelReward(parsed[i], cfg, `line ${i + 1}`).total_reward;
  if (!Number.isFinite(sink)) throw new Error('bad sum');
}

// The package's entry point, as a program embedding parl would call it (argv as in process.argv).
async function cliReward() {
  const io = devNullIo();
  const code = await runCli(['node', 'parl', 'reward', '--in', input], io);
  if (code !== 0) throw new Error(`parl reward exited ${code}`);
  io.stdout.end();
}

async function cliCriticalSteps() {
  const io = devNullIo();
  const code = await runCli(['node', 'parl', 'critical-steps', '--in', input], io);
  if (code !== 0) throw new Error(`parl critical-steps exited ${code}`);
  io.stdout.end();
}

async function best(fn) {
  let bestMs = Infinity;
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now();
    await fn();
    bestMs = Math.min(bestMs, performance.now() - t0);
  }
  return bestMs;
}

const base = await best(parseStringify);
const rows = [
  ['parse+stringify (baseline)', base],
  ['core labelReward only', await best(coreOnly)],
  ['parl reward (in-process)', await best(cliReward)],
  ['parl critical-steps (in-process)', await best(cliCriticalSteps)],
];
console.log(`@parl/cli bench: ${RECORDS} JSONL records, best of ${REPEATS}, node ${process.version}`);
console.log('| case | ms | records/s | time vs parse+stringify |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, ms] of rows) {
  console.log(`| ${name} | ${ms.toFixed(0)} | ${Math.round((RECORDS / ms) * 1000).toLocaleString('en-US')} | ${(ms / base).toFixed(2)}× |`);
}
rmSync(dir, { recursive: true, force: true });
