// Train the `parl` preset with the `parl` command, then read what the run folder holds:
// summary.json (the trained policy against the always-serial baseline on held-out tasks),
// metrics.jsonl (one line per training step) and the self-contained report.html.
// Run: node examples/train-preset.mjs [steps] [run-dir]      (defaults: the preset's steps, runs/train-preset-example)
import { spawnSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { requirePositiveInteger } from '@parl/core';

const stepsArg = process.argv[2];
const steps = stepsArg === undefined ? undefined : requirePositiveInteger(/^\d+$/.test(stepsArg) ? Number(stepsArg) : stepsArg, 'steps');
const runDir = resolve(process.argv[3] ?? join('runs', 'train-preset-example'));

// The `parl` bin of the installed @parl/cli (what `npx parl` would run).
const require = createRequire(import.meta.url);
const cliPackage = require.resolve('@parl/cli/package.json');
const parl = join(dirname(cliPackage), require(cliPackage).bin.parl);

const args = ['train', '--preset', 'parl', ...(steps === undefined ? [] : ['--steps', String(steps)]), '--seed', '1', '--out', runDir, '--quiet'];
console.log(`$ parl ${args.join(' ')}`);
const run = spawnSync(process.execPath, [parl, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
if (run.status !== 0) {
  console.error(`parl train failed with exit code ${run.status}`);
  process.exit(run.status ?? 1);
}

// summary.json (spec §6): measured on held-out tasks, the trained policy acting greedily.
const summary = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8'));
const f = summary.final;
const s = summary.baseline_serial;
console.log(`preset ${summary.preset}, seed ${summary.seed}, ${summary.steps} training steps → ${runDir}`);
console.log(
  `trained policy:  r_perf ${f.r_perf.toFixed(3)}, critical steps ${f.critical_steps.toFixed(1)}, ` +
    `mean width ${f.mean_width.toFixed(2)}, finish rate ${f.finish_rate === null ? '— (no sub-agents)' : f.finish_rate.toFixed(2)}, success rate ${f.success_rate.toFixed(2)}`,
);
console.log(`always serial:   r_perf ${s.r_perf.toFixed(3)}, critical steps ${s.critical_steps.toFixed(1)}`);
for (const { target, policy, serial } of summary.latency_to_target) {
  const show = (k) => (k === null ? 'never' : k.toFixed(1));
  console.log(`critical steps to reach r_perf ${target}: policy ${show(policy)}, serial ${show(serial)}`);
}

// metrics.jsonl: the λ schedules annealing and the reward terms, one line per step.
const metrics = (await readFile(join(runDir, 'metrics.jsonl'), 'utf8'))
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));
const first = metrics[0];
const last = metrics.at(-1);
console.log(`metrics.jsonl: ${metrics.length} steps; λ1 ${first.lambda1.toFixed(4)} → ${last.lambda1.toFixed(4)}, mean width ${first.mean_width.toFixed(2)} → ${last.mean_width.toFixed(2)}`);

// report.html: one file, no network needed to open it.
const report = join(runDir, 'report.html');
const html = await readFile(report, 'utf8');
const external = /<(script|link|img)\b[^>]*\b(src|href)\s*=\s*["']?(https?:)?\/\//i.test(html);
console.log(`report: ${report} (${Math.round((await stat(report)).size / 1024)} KiB, self-contained: ${external ? 'no' : 'yes'})`);
