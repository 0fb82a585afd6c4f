/**
 * The span attributes PARL's own components agree on, so that a trace and the record built from
 * the same run can be joined.
 *
 * @module
 */

/**
 * The span (or resource) attribute naming a trace's rollout: the `id` of the record the run
 * wrote (`task-17/rollout-3`). The swarm sets it on each episode's root span; `parl trace` keys
 * a trace's record by it, and `parl serve` finds an episode by it.
 */
export const ROLLOUT_ID_ATTRIBUTE = 'parl.rollout_id';
