/**
 * The policy interface shared by scripted baselines and the trained network.
 *
 * @module
 */
import type { ActionBatch } from '../engine/actions.js';
import type { SwarmBatch } from '../engine/swarm-batch.js';

/**
 * An orchestrator policy: given the batched environment and the active slots, write one action
 * per slot. Stochastic policies draw from each episode's own PRNG stream (`env.rng`), so an
 * episode's actions do not depend on which other episodes share its batch.
 */
export interface Policy {
  /** `scripted` baselines or the trained `mlp`. */
  readonly kind: 'scripted' | 'mlp';
  /** A short name, e.g. `serial` or `mlp`. */
  readonly name: string;
  /**
   * Choose the actions of `length` slots listed in `list`.
   *
   * @param env - the batched environment (read its state, draw from `env.rng`)
   * @param list - the active slots
   * @param length - how many entries of `list` to use
   * @param greedy - take the most likely action instead of sampling
   * @param out - where to write the actions, indexed by list position
   */
  act(env: SwarmBatch, list: Int32Array, length: number, greedy: boolean, out: ActionBatch): void;
}
