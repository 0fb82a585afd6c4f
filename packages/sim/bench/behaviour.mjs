// What a trained policy does on held-out tasks against `balanced`, per task family and state:
// mean critical steps and r_perf per family (budget lifted, as the latency curve measures), and
// per decision state (family, ready subtasks, all ready or not) the share of direct calls, the
// mean group size and hand-out against the ready count. Trains the preset at SEED (default 1)
// with CONFIG over it, or loads POLICY=path/to/policy.json.
//   pnpm --filter @parl/sim build && node packages/sim/bench/behaviour.mjs parl-mixed
import { readFileSync, writeFileSync } from 'node:fs';
import { MlpPolicy, getPreset, resolveTrainingConfig, runEpisodes, scriptedPolicy, train } from '../dist/index.js';
import { FEATURE_NAMES, READY_SCALE, emptyDecisionTrace, heldOutSeeds, scoreEpisodes } from '../dist/internal/bench.js';
import { resolveRewardConfig } from '@parl/core';

const name = process.argv[2] ?? 'parl-mixed';
const seed = Number(process.env.SEED ?? 1);
const overrides = process.env.CONFIG === undefined ? {} : JSON.parse(process.env.CONFIG);
const config = resolveTrainingConfig({ seed }, resolveTrainingConfig(overrides, getPreset(name)));
let policy;
if (process.env.POLICY !== undefined) {
  policy = MlpPolicy.fromSaved(JSON.parse(readFileSync(process.env.POLICY, 'utf8')));
} else {
  const result = await train(config);
  policy = result.policy;
  if (process.env.SAVE !== undefined) writeFileSync(process.env.SAVE, JSON.stringify(policy.toSaved()));
  console.log('latency', JSON.stringify(result.summary.latency_to_target.map((r) => r.policy)));
  console.log('balanced', JSON.stringify(result.summary.baselines.find((b) => b.policy === 'balanced').latency));
}
const env = config.env;
const episodes = Number(process.env.EPISODES ?? config.evaluation.episodes);
const seeds = heldOutSeeds(seed, episodes);
const clockScale = env.budget !== null && env.budget > 0 ? env.budget : env.orchestratorMaxSteps;
const free = { ...env, budget: null };
const F = FEATURE_NAMES.length;
const col = (n) => FEATURE_NAMES.indexOf(n);

function summarize(label, p) {
  const trace = emptyDecisionTrace();
  const records = runEpisodes(free, p, seeds, { greedy: true, clockScale, ...(p instanceof MlpPolicy ? { trace } : {}) });
  const scored = scoreEpisodes(records, resolveRewardConfig({}));
  const fam = {};
  scored.forEach((s, i) => {
    const r = records[i];
    const key = r.family;
    fam[key] ??= { n: 0, cs: 0, rp: 0, sub: 0 };
    fam[key].n++;
    fam[key].cs += s.criticalSteps;
    fam[key].rp += r.r_perf;
    fam[key].sub += r.num_subagents;
  });
  for (const [k, v] of Object.entries(fam)) console.log(`${label} ${k}: n ${v.n} critical ${(v.cs / v.n).toFixed(2)} r_perf ${(v.rp / v.n).toFixed(3)} subagents ${(v.sub / v.n).toFixed(1)}`);
  return { records, scored, trace };
}

const trained = summarize('trained', policy);
const balanced = summarize('balanced', scriptedPolicy('balanced'));
// Decisions by state.
const t = trained.trace;
const buckets = new Map();
const famOfSlot = trained.records.map((r) => r.family);
for (let i = 0; i < t.mode.length; i++) {
  const x = t.features.slice(i * F, (i + 1) * F);
  const ready = Math.round(x[col('ready')] * READY_SCALE);
  const allReady = x[col('all_ready')];
  const fam = famOfSlot[t.slot[i]];
  const rb = ready <= 1 ? '1' : ready <= 3 ? '2-3' : ready <= 6 ? '4-6' : ready <= 16 ? '7-16' : '17+';
  const key = `${fam} ready ${rb} ${allReady ? 'all-ready' : 'blocked-left'}`;
  const b = buckets.get(key) ?? { n: 0, direct: 0, width: 0, handout: 0, launches: 0 };
  b.n++;
  if (t.mode[i] === 0) b.direct++;
  else {
    b.launches++;
    b.width += (t.width[i] + 1) / Math.max(1, ready);
    b.handout += policy.spec.shareGrid[t.share[i]];
  }
  buckets.set(key, b);
}
for (const [k, b] of [...buckets].sort()) {
  console.log(`${k}: decisions ${b.n} direct ${(b.direct / b.n).toFixed(2)} width/ready ${(b.width / Math.max(1, b.launches)).toFixed(2)} share ${(b.handout / Math.max(1, b.launches)).toFixed(2)}`);
}
// Per-episode difference in critical steps and r_perf against balanced, by family.
const diffs = { wide: [], deep: [] };
trained.scored.forEach((s, i) => diffs[trained.records[i].family].push([s.criticalSteps - balanced.scored[i].criticalSteps, trained.records[i].r_perf - balanced.records[i].r_perf]));
for (const [k, d] of Object.entries(diffs)) {
  const slower = d.filter((x) => x[0] > 0.5).length;
  const faster = d.filter((x) => x[0] < -0.5).length;
  const worse = d.filter((x) => x[1] < 0).length;
  const better = d.filter((x) => x[1] > 0).length;
  console.log(`${k}: slower ${slower} faster ${faster} of ${d.length}; r_perf worse ${worse} better ${better}`);
}
policy.dispose();
