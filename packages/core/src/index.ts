/**
 * `@parl/core`: the PARL math of the Kimi K2.5 report — reward terms, λ schedules, critical
 * steps (staged and DAG), budgets, diagnostics and validation. No runtime dependencies.
 *
 * @packageDocumentation
 */
export * from './errors.js';
export * from './decimal.js';
export * from './schedules.js';
export * from './records.js';
export * from './reward.js';
export * from './critical-steps.js';
export * from './dag.js';
export * from './budget.js';
export * from './diagnostics.js';
export * from './labels.js';
export * from './batch/reward-batch.js';
export * from './batch/critical-steps-batch.js';
export * from './run-records.js';
export * from './sweep-stats.js';
