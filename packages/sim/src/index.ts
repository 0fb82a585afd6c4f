/**
 * `@parl/sim`: a seeded, batched swarm simulator (wide, deep and mixed tasks, frozen sub-agents,
 * orchestrator limits, critical-step budgets) whose episodes are spec §5 records, scripted
 * baselines, a tfjs policy network, and a trainer with the Kimi K2.5 objective whose presets
 * reproduce serial collapse, spurious parallelism and PARL's fix.
 *
 * @packageDocumentation
 */
export * from './rng.js';
export * from './env-config.js';
export * from './actions.js';
export * from './features.js';
export * from './swarm-batch.js';
export * from './policy.js';
export * from './scripted-policies.js';
export * from './episode-records.js';
export * from './rollout.js';
export * from './mlp-policy.js';
export * from './training-config.js';
export * from './presets.js';
export * from './metrics.js';
export * from './evaluation.js';
export * from './parl-objective.js';
export * from './trainer.js';
export * from './policy-io.js';
export * from './run-folder.js';
export * from './simulate.js';
export * from './count-head.js';
