/**
 * The names of the simulator's presets, scripted policies and task families, in a module of their
 * own: `@parl/sim/names` loads in a millisecond, without TensorFlow.js, so the `parl` command can
 * list them in its help without loading the simulator.
 *
 * @module
 */

/** The preset names. */
export const PRESET_NAMES = ['serial-collapse', 'spurious', 'parl', 'parl-mixed', 'delegate-only', 'no-anneal'] as const;

/** A preset name. */
export type PresetName = (typeof PRESET_NAMES)[number];

/** The scripted orchestrator policies. */
export const SCRIPTED_POLICY_NAMES = ['serial', 'max-parallel', 'balanced'] as const;

/** A scripted policy name. */
export type ScriptedPolicyName = (typeof SCRIPTED_POLICY_NAMES)[number];

/** A task family: wide (independent subtasks), deep (chains), or mixed (half each). */
export type TaskFamily = 'wide' | 'deep' | 'mixed';

/** The task families. */
export const TASK_FAMILIES: readonly TaskFamily[] = ['wide', 'deep', 'mixed'];
