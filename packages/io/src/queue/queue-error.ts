/**
 * The named failures of a job queue: its Redis out of reach, its jobs lost, or the queue closed
 * while a job still waited.
 *
 * @module
 */

/** Why a job on the queue could not be waited for. */
export type QueueFailure = 'unreachable' | 'lost' | 'stopped';

/** A job queue failed a waiting job: Redis could not be reached, lost the queue, or the queue was closed. */
export class QueueError extends Error {
  /** What went wrong. */
  readonly failure: QueueFailure;

  /**
   * @param message - one line saying what happened and how to resume
   * @param failure - what went wrong
   */
  constructor(message: string, failure: QueueFailure) {
    super(message);
    this.name = 'QueueError';
    this.failure = failure;
  }
}

/**
 * Thrown by a job handler for a job this worker can never run (a package it needs is not
 * installed, a job of a name it does not know): the job fails at once, without a retry.
 */
export class UnrunnableJobError extends Error {
  /** @param message - one line: why, and what to do about it */
  constructor(message: string) {
    super(message);
    this.name = 'UnrunnableJobError';
  }
}
