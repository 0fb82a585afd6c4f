/**
 * Allocating the action arrays the rollout loop hands to a policy.
 *
 * @module
 */
import type { ActionBatch } from '../../engine/actions.js';

/** Allocate an {@link ActionBatch} for up to `capacity` episodes. */
export function allocateActionBatch(capacity: number): ActionBatch {
  return { mode: new Uint8Array(capacity), width: new Int32Array(capacity), handout: new Int32Array(capacity) };
}
