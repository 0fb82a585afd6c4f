// Wall time (and CPU time of the process: user + system, which a shared machine's load inflates
// less) of each training preset at full length, and whether its outcome is unchanged against
// a baseline build of the package measured in the same run (issue 14 item 4):
//   pnpm --filter @parl/sim build
//   flock /work/bench.lock node packages/sim/bench/train-time.mjs [preset …]
// BASELINE=path/to/other/dist/index.js also times that build (e.g. the package built at an older
// commit, copied into packages/sim/baseline/dist so that it resolves the same dependencies) and
// compares summaries; RUNS=2 repeats each measurement; SEED=1 picks the seed; CONFIG='{…}' applies
// the same settings over the preset in both builds (e.g. a preset that changed between them).
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';

const current = await import('../dist/index.js');
const baseline = process.env.BASELINE === undefined ? undefined : await import(pathToFileURL(process.env.BASELINE).href);
const names = process.argv.length > 2 ? process.argv.slice(2) : (await import('../dist/names.js')).PRESET_NAMES;
const runs = Number(process.env.RUNS ?? 1);
const seed = Number(process.env.SEED ?? 1);
const overrides = process.env.CONFIG === undefined ? {} : JSON.parse(process.env.CONFIG);

async function time(sim, name) {
  const config = sim.resolveTrainingConfig({ seed }, sim.resolveTrainingConfig(overrides, sim.getPreset(name)));
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const result = await sim.train(config);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const summary = JSON.stringify(result.summary);
  result.policy.dispose();
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, summary };
}

console.log(`load average at start: ${loadavg().map((v) => v.toFixed(2)).join(' ')}`);
for (const name of names) {
  for (let r = 0; r < runs; r++) {
    const now = await time(current, name);
    const row = { preset: name, seed, seconds: Number(now.seconds.toFixed(2)), cpu_seconds: Number(now.cpuSeconds.toFixed(2)) };
    if (baseline !== undefined) {
      const before = await time(baseline, name);
      row.baseline_seconds = Number(before.seconds.toFixed(2));
      row.baseline_cpu_seconds = Number(before.cpuSeconds.toFixed(2));
      row.speedup = Number((before.seconds / now.seconds).toFixed(2));
      row.cpu_speedup = Number((before.cpuSeconds / now.cpuSeconds).toFixed(2));
      row.same_summary = before.summary === now.summary;
      if (!row.same_summary) {
        const a = JSON.parse(before.summary).final;
        const b = JSON.parse(now.summary).final;
        row.final_baseline = a;
        row.final = b;
      }
    }
    row.load = loadavg()[0].toFixed(2);
    console.log(JSON.stringify(row));
  }
}
