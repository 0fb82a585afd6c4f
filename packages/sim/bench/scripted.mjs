// The scripted policies on 1 000 tasks per family (seed 7, budget 120): the table in docs/simulator.md.
// Run after a build: node packages/sim/bench/scripted.mjs
import { criticalSteps, diagnose, validateStages } from '@parl/core';
import { SCRIPTED_POLICY_NAMES, simulate } from '../dist/index.js';

console.log('family  policy        r_perf  critical_steps  mean_width  finish_rate  end reasons');
for (const family of ['wide', 'deep', 'mixed']) {
  for (const policy of SCRIPTED_POLICY_NAMES) {
    const records = await simulate({ policy, family, episodes: 1000, seed: 7, env: { budget: 120 } });
    const n = records.length;
    const rPerf = records.reduce((a, r) => a + r.r_perf, 0) / n;
    const cs = records.reduce((a, r) => a + criticalSteps(r.stages).critical_steps, 0) / n;
    const d = diagnose(records.map((r) => validateStages(r.stages)));
    const reasons = {};
    for (const r of records) reasons[r.end_reason] = (reasons[r.end_reason] ?? 0) + 1;
    console.log(
      `${family.padEnd(7)} ${policy.padEnd(13)} ${rPerf.toFixed(3).padStart(6)} ${cs.toFixed(1).padStart(15)} ${d.mean_width.toFixed(1).padStart(11)} ${(1 - d.idle_subagent_share).toFixed(2).padStart(12)}  ${JSON.stringify(reasons)}`,
    );
  }
}
