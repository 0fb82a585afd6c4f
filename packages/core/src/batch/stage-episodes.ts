/**
 * Validated episodes staged densely for {@link criticalStepsBatch}, nested sub-agent entries
 * (spec §5.2) included: their own critical steps go in `subSteps`, their total steps in `subWork`;
 * sub-agents' `wait_steps` (spec §2) go in `subWait`.
 *
 * @module
 */
import type { NormalizedStage } from '../records.js';
import type { CriticalStepsBatchInput } from './batch-types.js';

/**
 * The dense `[B, T, N]` input of {@link criticalStepsBatch} for episodes' validated stages
 * ({@link validateRecord}'s `stages`), T and N the largest stage count and group. `subWork` is
 * given only when an episode holds a nested entry, `subWait` only when a sub-agent waited, so
 * plain episodes keep the fast kernels.
 *
 * @param episodes - each episode's stages, as `validateStages` returns them
 *
 * @example
 * ```ts
 * const stages = validateStages([{ main_steps: 1, sub_steps: [{ stages: [{ main_steps: 2, sub_steps: [3, 4] }] }] }]);
 * criticalStepsBatch(criticalStepsBatchInputOf([stages])).total_steps; // Float64Array [10]
 * ```
 */
export function criticalStepsBatchInputOf(episodes: readonly (readonly NormalizedStage[])[]): CriticalStepsBatchInput {
  const B = episodes.length;
  let T = 0;
  let N = 0;
  let nested = false;
  let waited = false;
  for (const stages of episodes) {
    T = Math.max(T, stages.length);
    for (const stage of stages) {
      N = Math.max(N, stage.sub.length);
      if (stage.work !== undefined) nested = true;
      if (stage.wait !== undefined) waited = true;
    }
  }
  const subSteps = new Float64Array(B * T * N);
  const subWork = nested ? new Float64Array(B * T * N) : undefined;
  const subWait = waited ? new Float64Array(B * T * N) : undefined;
  const mainSteps = new Float64Array(B * T);
  const groupSizes = new Int32Array(B * T);
  const numStages = new Int32Array(B);
  episodes.forEach((stages, b) => {
    numStages[b] = stages.length;
    stages.forEach((stage, t) => {
      const bt = b * T + t;
      mainSteps[bt] = stage.main;
      groupSizes[bt] = stage.sub.length;
      subSteps.set(stage.sub, bt * N);
      subWork?.set(stage.work ?? stage.sub, bt * N);
      if (stage.wait !== undefined) subWait?.set(stage.wait, bt * N);
    });
  });
  const input: CriticalStepsBatchInput = { batch: B, stages: T, width: N, subSteps, mainSteps, groupSizes, numStages };
  return { ...input, ...(subWork === undefined ? {} : { subWork }), ...(subWait === undefined ? {} : { subWait }) };
}
