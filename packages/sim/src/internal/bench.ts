/**
 * The internals the package's own benchmarks (`bench/*.mjs`) read. Built as `dist/internal/bench.js`
 * for them alone: it is not in `package.json`'s `exports` (nothing outside the package can import
 * it), not re-exported by the index and not in the API report.
 *
 * @module
 */
export { allocateActionBatch } from './engine/action-batch.js';
export { mixSeed } from './engine/rng.js';
export { FEATURE_NAMES, READY_SCALE } from './engine/features.js';
export { emptyDecisionTrace } from '../policies/mlp-policy.js';
export { heldOutSeeds } from './evaluation/evaluation.js';
export { scoreEpisodes } from './evaluation/metrics.js';
