// Which λ1 schedules make PARL work on mixed tasks? A sweep of four λ1 schedules × five seeds on
// the `mixed` task family (docs/simulator.md: the `parl` preset's schedules, tuned on wide tasks,
// end serial there), run from TypeScript/JavaScript with @parl/sim's runSweep on every core, then
// the verdict of each grid point as the sweep report gives it.
// Run: node examples/sweep-mixed.mjs [grid.json] [sweep-dir]
//      (defaults: examples/sweeps/mixed-lambda.json, sweeps/mixed-lambda; about 20 runs of 300 steps)
// Equivalent command: parl sweep --grid examples/sweeps/mixed-lambda.json
import { fileURLToPath } from 'node:url';
import { bestPoint, runSweep, sweepPointRows } from '@parl/sim';

const grid = process.argv[2] ?? fileURLToPath(new URL('./sweeps/mixed-lambda.json', import.meta.url));
const out = process.argv[3] ?? 'sweeps/mixed-lambda';

const outcome = await runSweep({
  grid,
  out,
  onRun: (e) => process.stderr.write(`run ${e.done}/${e.total} ${e.kind}: ${e.label}\n`),
});
console.log(`${outcome.runs} runs (${outcome.trained} trained, ${outcome.skipped} already complete) in ${outcome.dir}`);

const f = (x) => x.toFixed(3);
const rows = sweepPointRows(outcome.rows);
for (const row of rows) {
  const s = row.summary;
  console.log(
    `lambda1=${row.params.lambda1}: ${s.verdict} (${s.verdicts.parallel}/${s.runs} seeds parallel) — speed-up ${f(s.speedup.mean)}× [${f(s.speedup.min)}, ${f(s.speedup.max)}], r_perf ${f(s.r_perf.mean)} vs serial ${f(s.serial_r_perf.mean)}, finish rate ${s.finish_rate === null ? '— (no sub-agents)' : f(s.finish_rate.mean)}, width ${f(s.mean_width.mean)}`,
  );
}
const best = bestPoint(rows);
console.log(best === undefined ? 'verdict: no schedule made PARL work on these tasks' : `verdict: best schedule lambda1=${best.params.lambda1}`);
console.log(`results: ${outcome.results} (parl sweep also writes report.html there)`);
if (outcome.failed.length > 0) process.exitCode = 1;
