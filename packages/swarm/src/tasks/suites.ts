/**
 * Generating a built-in suite's tasks (spec §10) from the suite registry: `wide` (N entities × M
 * attributes to fill in; item-level F1), `deep` (a chain of successors, each look-up needing the
 * previous answer) and `mixed` (both, alternating). No prompt asks for parallelism.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { SeededRandom } from './seeded-random.js';
import { SUITES } from './suites/suite-registry.js';
import { MAX_ATTRIBUTES, SUITE_SETTINGS } from './suites/suite-settings.js';
import { SUITE_NAMES, type SuiteName, type SwarmTask } from './task.js';

/** The shape of a generated suite. */
export interface SuiteOptions {
  /** Tasks to generate (≥ 1). */
  readonly tasks: number;
  /** The seed: the same seed gives the same tasks. */
  readonly seed: number;
  /** `wide`: entities per task (rows). */
  readonly entities?: number | undefined;
  /** `wide`: attributes per entity (columns). */
  readonly attributes?: number | undefined;
  /** `deep`: successor hops per task. */
  readonly hops?: number | undefined;
}

/** Defaults: 6 × 3 tables, 4 hops. */
export const SUITE_DEFAULTS = {
  entities: SUITE_SETTINGS.entities.default,
  attributes: SUITE_SETTINGS.attributes.default,
  hops: SUITE_SETTINGS.hops.default,
} as const;

function positiveInt(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 1) throw new ParlInputError(field, value, 'an integer ≥ 1');
  return value;
}

/**
 * Generate a suite's tasks.
 *
 * @param suite - `wide`, `deep` or `mixed`
 * @param options - count, seed and shape (see {@link SuiteOptions})
 * @throws ParlInputError for an unknown suite or a bad count
 */
export function generateSuite(suite: SuiteName, options: SuiteOptions): SwarmTask[] {
  if (!(SUITE_NAMES as readonly string[]).includes(suite)) throw new ParlInputError('suite', suite, `one of ${SUITE_NAMES.join(', ')}`);
  const count = positiveInt(options.tasks, 'tasks');
  if (!Number.isInteger(options.seed)) throw new ParlInputError('seed', options.seed, 'an integer');
  const shape = {
    entities: positiveInt(options.entities ?? SUITE_DEFAULTS.entities, 'entities'),
    attributes: positiveInt(options.attributes ?? SUITE_DEFAULTS.attributes, 'attributes'),
    hops: positiveInt(options.hops ?? SUITE_DEFAULTS.hops, 'hops'),
  };
  if (shape.attributes > MAX_ATTRIBUTES) throw new ParlInputError('attributes', shape.attributes, `at most ${MAX_ATTRIBUTES}`);
  const entry = SUITES[suite];
  const tasks: SwarmTask[] = [];
  for (let i = 0; i < count; i++) {
    // One generator per task: task i is the same whatever the count.
    const rng = new SeededRandom((options.seed * 7919 + i * 104729) >>> 0);
    tasks.push(entry.task(`${suite}-s${options.seed}-${i}`, i, rng, shape));
  }
  return tasks;
}
