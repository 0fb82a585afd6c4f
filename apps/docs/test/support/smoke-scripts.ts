/**
 * What "its entry points import and run" means for each published package: a short ESM script,
 * run with plain `node` in the folder the tarballs were installed into, that imports the package
 * by name, calls it on real input and prints one JSON line for the test to check.
 */
export interface SmokeScript {
  /** The package the script imports. */
  readonly packageName: string;
  /** ESM source run with `node --input-type=module`. */
  readonly source: string;
  /** Checks the parsed JSON the script printed; returns a problem or undefined. */
  readonly check: (printed: Record<string, unknown>) => string | undefined;
}

/** The smoke script of every published package, by npm name. */
export const SMOKE_SCRIPTS: Readonly<Record<string, SmokeScript>> = {
  '@parl/core': {
    packageName: '@parl/core',
    source: `
      import { computeReward, criticalSteps } from '@parl/core';
      const reward = computeReward({ num_subagents: 25, completed_subtasks: 20, success: true, quality: 0.8, training_step: 5000 });
      const cs = criticalSteps([{ main_steps: 1, sub_steps: [3, 5, 2] }, { main_steps: 1 }]);
      console.log(JSON.stringify({ total_reward: reward.total_reward, critical_steps: cs.critical_steps }));
    `,
    check: (p) =>
      Math.abs((p.total_reward as number) - 0.8525) < 1e-12 && p.critical_steps === 7 ? undefined : `expected total_reward 0.8525 and critical_steps 7, got ${JSON.stringify(p)}`,
  },
  '@parl/gpu': {
    packageName: '@parl/gpu',
    source: `
      import { initBackend } from '@parl/gpu';
      const selection = await initBackend({ order: ['wasm', 'cpu'] });
      console.log(JSON.stringify({ backend: selection.backend }));
    `,
    check: (p) => (p.backend === 'wasm' || p.backend === 'cpu' ? undefined : `expected the wasm or cpu backend, got ${JSON.stringify(p)}`),
  },
};
