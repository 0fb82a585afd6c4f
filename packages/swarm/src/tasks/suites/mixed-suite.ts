/**
 * `mixed` (spec §10): `wide` and `deep` tasks alternating (even places wide, odd places deep).
 *
 * @module
 */
import { DEEP_SUITE } from './deep-suite.js';
import type { SuiteEntry } from './suite-entry.js';
import { WIDE_SUITE } from './wide-suite.js';

/** The `mixed` suite. */
export const MIXED_SUITE: SuiteEntry = {
  description: 'wide and deep tasks, alternating',
  settings: ['entities', 'attributes', 'hops'],
  task: (id, index, rng, shape) => (index % 2 === 0 ? WIDE_SUITE : DEEP_SUITE).task(id, index, rng, shape),
};
