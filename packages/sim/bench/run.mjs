// Throughput of the batched swarm engine (pnpm bench). Wide tasks of 18–22 subtasks (about 20),
// scripted policies, one core. Baselines measured in the same run: the same engine stepping one
// episode at a time, and the record-producing path (spec §5 records with every stage).
import { SwarmBatch, episodeSeeds, resolveEnvConfig, runEpisodes, scriptedPolicy } from '../dist/index.js';
import { allocateActionBatch, mixSeed } from '../dist/internal/bench.js';

const env = resolveEnvConfig({ family: 'wide', wideSubtasks: [18, 22] });
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1.5);

function engineRate(policyName, batch) {
  const policy = scriptedPolicy(policyName);
  const engine = new SwarmBatch(env, batch, { recordStages: false });
  const actions = allocateActionBatch(batch);
  let episodes = 0;
  let round = 0;
  const run = (limitMs) => {
    const t0 = performance.now();
    while (performance.now() - t0 < limitMs) {
      for (let b = 0; b < batch; b++) engine.reset(b, mixSeed(1, round * batch + b), mixSeed(2, round * batch + b));
      for (;;) {
        const { list, length } = engine.activeList(batch);
        if (length === 0) break;
        policy.act(engine, list, length, true, actions);
        engine.step(list, length, actions);
      }
      episodes += batch;
      round++;
    }
    return performance.now() - t0;
  };
  run(300); // warm-up
  episodes = 0;
  const ms = run(SECONDS * 1000);
  return episodes / (ms / 1000);
}

function recordsRate(policyName) {
  const policy = scriptedPolicy(policyName);
  const n = 20000;
  const seeds = Array.from({ length: n }, (_, i) => episodeSeeds(3, i));
  runEpisodes(env, policy, seeds.slice(0, 2000), { greedy: true });
  const t0 = performance.now();
  runEpisodes(env, policy, seeds, { greedy: true, batchSize: 1024 });
  return n / ((performance.now() - t0) / 1000);
}

const rows = [];
for (const name of ['balanced', 'serial', 'max-parallel']) {
  const batched = engineRate(name, 1024);
  const single = engineRate(name, 1);
  const records = recordsRate(name);
  rows.push({ policy: name, batched, single, records });
}
const fmt = (x) => Math.round(x).toLocaleString('en-US');
console.log('@parl/sim engine throughput, wide tasks of 18–22 subtasks, one core (episodes/s)');
console.log('policy        batched(B=1024)   one-at-a-time   ratio   with §5 records   ratio');
for (const r of rows) {
  console.log(
    `${r.policy.padEnd(13)} ${fmt(r.batched).padStart(15)} ${fmt(r.single).padStart(15)} ${(r.batched / r.single).toFixed(2).padStart(7)}x ${fmt(r.records).padStart(17)} ${(r.batched / r.records).toFixed(2).padStart(7)}x`,
  );
}
const target = 200000;
const worst = Math.min(...rows.map((r) => r.batched));
console.log(`target ≥ ${fmt(target)} episodes/s: ${worst >= target ? 'met' : 'NOT met'} (slowest policy ${fmt(worst)})`);
