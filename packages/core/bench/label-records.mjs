// Checking and labelling one spec §5 record, what `parl reward` and `parl serve` do per record
// besides parsing and printing: recordFieldHints + rewardLabelFields, records/s on one core, for
// this build and, with BASELINE=<dist/index.js>[,<dist/index.js>…], other builds, alternated in one
// process (7 rounds of 0.5 s each, medians). The builds must label the records identically.
//
// Usage: node bench/label-records.mjs            (after pnpm --filter @parl/core build)
//        BASELINE=/path/to/old/dist/index.js node bench/label-records.mjs
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';

const builds = { 'this build': await import('../dist/index.js') };
for (const path of (process.env.BASELINE ?? '').split(',').filter(Boolean)) builds[path] = await import(pathToFileURL(path).href);

// 20 000 records: ids, a prompt id, a step, r_perf and 1–6 stages of 0–6 sub-agents (numbers and
// {steps, finished} objects), as rollouts of an orchestrator look.
const stage = (i) => ({ main_steps: 1 + (i % 3), sub_steps: Array.from({ length: i % 7 }, (_, k) => (k % 2 ? { steps: 3 + k, finished: k % 3 !== 0 } : 2 + k)) });
const records = Array.from({ length: 20_000 }, (_, i) => ({ id: `r${i}`, prompt_id: `p${i % 50}`, model: 'm', training_step: 100 + i, r_perf: (i % 100) / 100, stages: Array.from({ length: 1 + (i % 6) }, (_, t) => stage(i + t)) }));

const names = Object.keys(builds);
for (const r of records.slice(0, 200)) {
  const expected = JSON.stringify(builds[names[0]].labelReward(r, {}));
  for (const name of names.slice(1)) if (JSON.stringify(builds[name].labelReward(r, {})) !== expected) throw new Error(`${name} labels differently: not the same work`);
}
const rate = (m) => {
  const config = m.resolveRewardConfig({});
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 500) {
    for (const r of records) {
      m.recordFieldHints(r);
      m.rewardLabelFields(r, config, 'line 1');
    }
    n += records.length;
  }
  return (n / (performance.now() - t0)) * 1000;
};
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const runs = Object.fromEntries(names.map((n) => [n, []]));
for (let round = 0; round < 7; round++) for (const n of names) runs[n].push(rate(builds[n]));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mine = median(runs['this build']);
for (const n of names) console.log(`${n}: ${Math.round(median(runs[n]))} records/s (${(1e6 / median(runs[n])).toFixed(2)} µs a record)${n === 'this build' ? '' : `; this build is ${(mine / median(runs[n])).toFixed(2)}x`}`);
