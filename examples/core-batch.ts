// @parl/core from TypeScript: PARL rewards and critical steps for a batch of rollouts, first one
// record at a time (the spec §5 JSON a logger writes), then as one structure-of-arrays batch.
// Run: pnpm --filter @parl/examples exec tsx core-batch.ts
import {
  computeReward,
  criticalSteps,
  criticalStepsBatch,
  resolveRewardConfig,
  rewardBatch,
  type EpisodeRecord,
  type StageRecord,
} from '@parl/core';

const BATCH = 2048; // episodes
const STAGES = 6; // stage capacity T
const WIDTH = 16; // sub-agent capacity N per stage

/** A small deterministic generator (mulberry32), so every run prints the same numbers. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// 1. A batch of rollouts as records: some serial, some wide, at different training steps.
const rand = random(7);
const records: EpisodeRecord[] = [];
for (let b = 0; b < BATCH; b++) {
  const stageCount = 1 + Math.floor(rand() * STAGES);
  const wide = rand() < 0.5;
  const stages: StageRecord[] = [];
  for (let t = 0; t < stageCount; t++) {
    const width = wide ? 1 + Math.floor(rand() * WIDTH) : rand() < 0.7 ? 1 : 0;
    stages.push({ main_steps: 1, sub_steps: Array.from({ length: width }, () => 1 + Math.floor(rand() * 8)) });
  }
  const launched = stages.reduce((n, s) => n + (s.sub_steps?.length ?? 0), 0);
  records.push({
    id: `rollout-${b}`,
    training_step: Math.floor(rand() * 10_000),
    stages,
    completed_subtasks: Math.floor(launched * (0.5 + rand() / 2)),
    r_perf: Math.round(rand() * 100) / 100,
  });
}

// 2. One at a time: resolve the config once, then label each record.
const config = resolveRewardConfig({}); // open-parl defaults: λ1, λ2 linear 0.1 → 0 over 10,000 steps
const single = records.map((r) => ({ reward: computeReward(r, config), steps: criticalSteps(r.stages ?? []) }));

// 3. The same batch as typed arrays: [B] per-episode inputs and a dense [B, T, N] of sub-agent steps.
const numSubagents = new Int32Array(BATCH);
const completed = new Int32Array(BATCH);
const rPerf = new Float64Array(BATCH);
const trainingStep = new Float64Array(BATCH);
const subSteps = new Float32Array(BATCH * STAGES * WIDTH);
const groupSizes = new Int32Array(BATCH * STAGES);
const numStages = new Int32Array(BATCH);
records.forEach((r, b) => {
  const stages = r.stages ?? [];
  numStages[b] = stages.length;
  stages.forEach((stage, t) => {
    const subs = (stage.sub_steps ?? []) as number[];
    groupSizes[b * STAGES + t] = subs.length;
    subs.forEach((s, i) => (subSteps[(b * STAGES + t) * WIDTH + i] = s));
    numSubagents[b] = (numSubagents[b] as number) + subs.length;
  });
  completed[b] = r.completed_subtasks as number;
  rPerf[b] = r.r_perf as number;
  trainingStep[b] = r.training_step as number;
});
const rewards = rewardBatch({ numSubagents, completedSubtasks: completed, rPerf, trainingStep }, config);
const steps = criticalStepsBatch({ batch: BATCH, stages: STAGES, width: WIDTH, subSteps, groupSizes, numStages });

// 4. Both ways give the same numbers, bit for bit.
let mismatches = 0;
single.forEach(({ reward, steps: cs }, b) => {
  if (reward.total_reward !== rewards.total_reward[b] || cs.critical_steps !== steps.critical_steps[b]) mismatches++;
});

const mean = (xs: ArrayLike<number>): number => Array.from(xs).reduce((a, x) => a + x, 0) / xs.length;
console.log(`episodes: ${BATCH}`);
console.log('first rollouts:');
for (let b = 0; b < 4; b++) {
  const r = single[b]?.reward;
  console.log(
    `  ${records[b]?.id}  step ${String(records[b]?.training_step).padStart(4)}  total_reward ${rewards.total_reward[b]?.toFixed(4)}` +
      ` (r_parallel ${r?.r_parallel.toFixed(2)}, r_finish ${r?.r_finish.toFixed(2)}, r_perf ${r?.r_perf.toFixed(2)})` +
      `  critical_steps ${steps.critical_steps[b]}  parallelism ${steps.parallelism[b]?.toFixed(2)}x`,
  );
}
console.log(`mean total_reward: ${mean(rewards.total_reward).toFixed(4)}`);
console.log(`mean critical_steps: ${mean(steps.critical_steps).toFixed(2)}, mean parallelism: ${mean(steps.parallelism).toFixed(2)}x`);
console.log(`batch equals one-at-a-time: ${mismatches === 0 ? 'yes' : `no (${mismatches} episodes differ)`}`);
if (mismatches !== 0) process.exitCode = 1;
