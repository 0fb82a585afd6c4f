/**
 * The one registry of the built-in suites (spec §10), generated offline from a seed: one entry
 * per suite, each in its own file, each reading the settings it names from
 * {@link SUITE_SETTINGS}.
 *
 * @module
 */
import type { SuiteName } from '../task.js';
import { DEEP_SUITE } from './deep-suite.js';
import { MIXED_SUITE } from './mixed-suite.js';
import type { SuiteEntry } from './suite-entry.js';
import { WIDE_SUITE } from './wide-suite.js';

/** The suites, by name. */
export const SUITES: Readonly<Record<SuiteName, SuiteEntry>> = {
  wide: WIDE_SUITE,
  deep: DEEP_SUITE,
  mixed: MIXED_SUITE,
};
