/**
 * The step limits of spec §10: caps on the model calls of the orchestrator and of each sub-agent.
 *
 * @module
 */

/** Caps on model calls: the orchestrator's per episode, each sub-agent's per assigned task. */
export interface SwarmLimits {
  /** The orchestrator's model calls per episode. */
  readonly orchestrator_steps: number;
  /** Each sub-agent's model calls per assigned task; a sub-agent at its cap is `finished: false`. */
  readonly subagent_steps: number;
}

/** The presets of the Kimi K2.5 report's appendix (spec §10), `default` PARL-TS's own. */
export const LIMIT_PRESETS = {
  default: { orchestrator_steps: 100, subagent_steps: 50 },
  browsecomp: { orchestrator_steps: 15, subagent_steps: 100 },
  widesearch: { orchestrator_steps: 100, subagent_steps: 100 },
} as const satisfies Readonly<Record<string, SwarmLimits>>;

/** A preset name: `default`, `browsecomp` or `widesearch`. */
export type LimitPreset = keyof typeof LIMIT_PRESETS;

/** The preset names, in the order help prints them. */
export const LIMIT_PRESET_NAMES = Object.keys(LIMIT_PRESETS) as readonly LimitPreset[];
