/**
 * The sub-agent pool: at most `concurrency` sub-agents run at once over the episode's whole
 * tree; the others wait, in the order their `assign_task` calls were made, and start as earlier
 * ones end (spec §10). It is the concurrency bound of the `assign_task` tool's provider.
 *
 * @module
 */
import { Semaphore, type Lease } from '../tools/semaphore.js';
import type { CallLimiter } from '../tools/tool-provider.js';

/** Places for running sub-agents. */
export class SubAgentPool implements CallLimiter {
  private readonly places: Semaphore;

  /** @param concurrency - sub-agents running at once (≥ 1) */
  constructor(concurrency: number) {
    this.places = new Semaphore(concurrency);
  }

  /** Sub-agents running now. */
  get running(): number {
    return this.places.held;
  }

  /** Wait for a place for one sub-agent (a wait that `signal` aborts ends). */
  acquire(signal?: AbortSignal): Promise<Lease> {
    return this.places.acquire(signal);
  }
}
