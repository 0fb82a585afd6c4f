/**
 * Defaults of the simulator commands, apart from the commands themselves so that `parl --help`
 * can show them without loading the simulator.
 *
 * @module
 */

/** The preset `parl train` uses when `--preset` is not given. */
export const DEFAULT_PRESET = 'parl';

/** The policy `parl simulate` runs when `--policy` is not given. */
export const DEFAULT_SIMULATE_POLICY = 'balanced';
