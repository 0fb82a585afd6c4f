// Trains the OpenPARL presets (parl, delegate-only, no-anneal by default) over seeds and prints,
// per run, what docs/simulator.md compares with OpenPARL's figures: the assign rate (share of a
// step's rollouts that launched a sub-agent) at the first step, at its peak (10-step moving
// average) and over the last tenth of training; the truncated and repeat shares over the last
// tenth; its lowest 10-step average before the peak (the trough) and the first step from which
// that average is above 0.9; and the trained policy's sub-agents per episode and r_perf on held-out tasks. Then the
// claims per seed. Run it after `pnpm --filter @parl/sim build`, e.g.
//   SEEDS=101,102,103 node packages/sim/bench/openparl.mjs parl delegate-only no-anneal
// CONFIG='{"steps":200}' trains with settings over each preset (as parl train --config does).
import { getPreset, resolveTrainingConfig, train } from '../dist/index.js';

const names = process.argv.length > 2 ? process.argv.slice(2) : ['parl', 'delegate-only', 'no-anneal'];
const seeds = (process.env.SEEDS ?? '1,2,3,4,5').split(',').map(Number);
const overrides = process.env.CONFIG === undefined ? {} : JSON.parse(process.env.CONFIG);
const mean = (xs) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const r3 = (x) => (x === null || x === undefined ? null : Number(x.toFixed(3)));

const bySeed = new Map();
for (const name of names) {
  for (const seed of seeds) {
    const t0 = performance.now();
    const result = await train(resolveTrainingConfig({ seed }, resolveTrainingConfig(overrides, getPreset(name))));
    const m = result.metrics;
    const tenth = Math.max(1, Math.floor(m.length / 10));
    const window = 10;
    let peak = -1;
    let peakStep = 0;
    for (let i = 0; i + window <= m.length; i++) {
      const a = mean(m.slice(i, i + window).map((x) => x.assign_rate));
      if (a > peak) {
        peak = a;
        peakStep = i;
      }
    }
    let trough = Infinity;
    let above = null;
    for (let i = 0; i + window <= m.length; i++) {
      const a = mean(m.slice(i, i + window).map((x) => x.assign_rate));
      if (i <= peakStep && a < trough) trough = a;
      if (above === null && a > 0.9) above = i;
    }
    const last = m.slice(-tenth);
    const f = result.summary.final;
    const row = {
      preset: name,
      seed,
      seconds: r3((performance.now() - t0) / 1000),
      assign_first: r3(m[0].assign_rate),
      assign_peak: r3(peak),
      assign_peak_step: peakStep,
      assign_trough: r3(trough),
      assign_above_0_9_step: above,
      assign_last: r3(mean(last.map((x) => x.assign_rate))),
      truncated_last: r3(mean(last.map((x) => x.truncated_share))),
      repeat_last: r3(mean(last.map((x) => x.repeat_share))),
      truncated_peak: r3(Math.max(...m.map((x) => x.truncated_share))),
      subagents_last: r3(mean(last.map((x) => x.subagents))),
      r_perf_last: r3(mean(last.map((x) => x.r_perf))),
      final_subagents: r3(f.subagents),
      final_r_perf: r3(f.r_perf),
      final_assign: r3(f.assign_rate),
      final_truncated: r3(f.truncated_share),
      final_width: r3(f.mean_width),
      final_finish: r3(f.finish_rate),
      speedup: r3(result.summary.baseline_serial.critical_steps / f.critical_steps),
      trace: m.filter((_, i) => i % 20 === 0).map((x) => r3(x.assign_rate)),
    };
    console.log(JSON.stringify(row));
    bySeed.set(`${name}/${seed}`, row);
    result.policy.dispose();
  }
}
const have = (n) => names.includes(n);
for (const seed of seeds) {
  const p = bySeed.get(`parl/${seed}`);
  const d = bySeed.get(`delegate-only/${seed}`);
  const a = bySeed.get(`no-anneal/${seed}`);
  const out = [`seed ${seed}:`];
  if (p) out.push(`parl assign ${p.assign_first} -> trough ${p.assign_trough} -> ${p.assign_last} ${p.assign_trough < 0.3 && p.assign_last > 0.9 ? 'OK' : 'MISS'}`);
  if (d) out.push(`delegate-only peak ${d.assign_peak} -> ${d.assign_last} ${d.assign_peak - d.assign_last >= 0.4 ? 'OK' : 'MISS'}`);
  if (d && p) out.push(`truncated ${d.truncated_last} vs parl ${p.truncated_last} ${d.truncated_last >= 3 * p.truncated_last && d.truncated_last > 0 ? 'OK' : 'MISS'}`);
  if (a && p) out.push(`no-anneal sub-agents ${a.final_subagents} vs ${p.final_subagents} at r_perf ${a.final_r_perf} vs ${p.final_r_perf} ${a.final_subagents > p.final_subagents && a.final_r_perf <= p.final_r_perf ? 'OK' : 'MISS'}`);
  if (out.length > 1 && (have('parl') || have('delegate-only') || have('no-anneal'))) console.log(out.join(' | '));
}
