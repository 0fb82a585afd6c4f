// A first look at @parl/core: the reward of a few rollouts across training, and their critical steps.
import { computeReward, criticalSteps, diagnose, validateRecord } from '@parl/core';

const rollouts = [
  { id: 'serial', success: true, quality: 0.9, stages: Array.from({ length: 8 }, () => ({ main_steps: 1, sub_steps: [4] })) },
  { id: 'wide', success: true, quality: 0.9, stages: [{ main_steps: 1, sub_steps: [4, 5, 3, 4, 6, 4, 5, 3] }, { main_steps: 1 }] },
  {
    id: 'spurious',
    success: false,
    stages: [{ main_steps: 1, sub_steps: Array.from({ length: 40 }, (_, i) => ({ steps: 2, finished: i < 4 })) }, { main_steps: 1 }],
  },
];
for (const step of [0, 5000, 10000]) {
  for (const r of rollouts) {
    const reward = computeReward({ ...r, training_step: step });
    const cs = criticalSteps(r.stages);
    console.log(
      `step ${String(step).padStart(5)}  ${r.id.padEnd(8)}  reward ${reward.total_reward.toFixed(4)} ` +
        `(λ1·r_parallel ${reward.instantiation_component.toFixed(4)}, λ2·r_finish ${reward.finish_component.toFixed(4)}, r_perf ${reward.r_perf.toFixed(2)})  ` +
        `critical steps ${cs.critical_steps}, parallelism ${cs.parallelism.toFixed(2)}×`,
    );
  }
}
const d = diagnose(rollouts.map((r) => validateRecord(r).stages ?? []));
console.log(`diagnostics: serial stage share ${d.serial_stage_share.toFixed(2)}, idle sub-agent share ${d.idle_subagent_share.toFixed(2)}, parallelism ${d.parallelism.toFixed(2)}`);
