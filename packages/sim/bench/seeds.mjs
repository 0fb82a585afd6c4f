// Trains presets over several seeds and prints, per run and then per preset (mean, sd, min–max),
// the outcomes docs/simulator.md reports: speed-up over always-serial, r_perf against serial's,
// finish rate, width, sub-agents and work per episode, whether the trained policy's held-out
// episodes equal a scripted policy's, and how its latency-to-target curve compares with every
// scripted baseline's. Long: run it in the background, e.g.
//   pnpm --filter @parl/sim build && nice node packages/sim/bench/seeds.mjs parl-mixed parl spurious serial-collapse
// SEEDS=1,2,3 picks the seeds (default 1..5); CONFIG='{"steps":400}' trains with settings over
// each preset (as parl train --config does).
import { getPreset, resolveTrainingConfig, train } from '../dist/index.js';
import { PRESET_NAMES } from '../dist/names.js';

const names = process.argv.length > 2 ? process.argv.slice(2) : PRESET_NAMES;
const seeds = (process.env.SEEDS ?? '1,2,3,4,5').split(',').map(Number);
const overrides = process.env.CONFIG === undefined ? {} : JSON.parse(process.env.CONFIG);

/** 'below' when at or below everywhere and strictly below once, 'equal', or 'not below'. */
function curveAgainst(trained, baseline) {
  let below = 0;
  let above = 0;
  trained.forEach((t, i) => {
    const tv = t ?? Infinity;
    const bv = baseline[i] ?? Infinity;
    if (tv < bv) below++;
    else if (tv > bv) above++;
  });
  if (above > 0) return 'not below';
  return below > 0 ? 'below' : 'equal';
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const stat = (xs) => `${mean(xs).toFixed(3)} ± ${sd(xs).toFixed(3)} [${Math.min(...xs).toFixed(3)}, ${Math.max(...xs).toFixed(3)}]`;

for (const name of names) {
  const rows = [];
  for (const seed of seeds) {
    const t0 = performance.now();
    const result = await train(resolveTrainingConfig({ seed }, resolveTrainingConfig(overrides, getPreset(name))));
    const s = result.summary;
    const tenth = Math.max(1, Math.floor(result.metrics.length / 10));
    const early = mean(result.metrics.slice(0, tenth).map((m) => m.subagents));
    const late = mean(result.metrics.slice(-tenth).map((m) => m.subagents));
    const trained = s.latency_to_target.map((r) => r.policy);
    const row = {
      preset: name,
      seed,
      seconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
      speedup: s.baseline_serial.critical_steps / s.final.critical_steps,
      r_perf: s.final.r_perf,
      serial_r_perf: s.baseline_serial.r_perf,
      critical_steps: s.final.critical_steps,
      serial_critical_steps: s.baseline_serial.critical_steps,
      mean_width: s.final.mean_width,
      finish_rate: s.final.finish_rate,
      subagents: s.final.subagents,
      total_steps: s.final.total_steps,
      subagents_first_tenth: early,
      subagents_last_tenth: late,
      latency: trained,
      baselines: Object.fromEntries(
        s.baselines.map((b) => [b.policy, { same_as_trained: b.same_as_trained, curve: curveAgainst(trained, b.latency), latency: b.latency }]),
      ),
    };
    console.log(JSON.stringify(row));
    rows.push(row);
    result.policy.dispose();
  }
  const col = (k) => rows.map((r) => r[k]);
  console.log(`== ${name} over seeds ${seeds.join(',')}`);
  for (const k of ['speedup', 'r_perf', 'serial_r_perf', 'critical_steps', 'mean_width', 'finish_rate', 'subagents', 'total_steps', 'subagents_first_tenth', 'subagents_last_tenth']) {
    console.log(`   ${k}: ${stat(col(k))}`);
  }
  console.log(`   r_perf >= serial: ${rows.filter((r) => r.r_perf >= r.serial_r_perf).length}/${rows.length}`);
  for (const b of rows[0].baselines ? Object.keys(rows[0].baselines) : []) {
    const same = rows.filter((r) => r.baselines[b].same_as_trained).length;
    const below = rows.filter((r) => r.baselines[b].curve === 'below').length;
    console.log(`   vs ${b}: identical episodes ${same}/${rows.length}, curve at or below and strictly below once ${below}/${rows.length}`);
  }
}
