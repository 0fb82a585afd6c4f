/**
 * The named failures of a job queue: its Redis out of reach, its jobs lost, or the queue closed
 * while a job still waited.
 *
 * @module
 */

/** Why a job on the queue could not be waited for. */
export type QueueFailure = 'unreachable' | 'lost' | 'stopped';

const QUEUE_FAILURE_CODES = {
  unreachable: 'PARL_ERR_QUEUE_UNREACHABLE',
  lost: 'PARL_ERR_QUEUE_LOST',
  stopped: 'PARL_ERR_QUEUE_STOPPED',
} as const satisfies Record<QueueFailure, string>;

/** A job queue failed a waiting job: Redis could not be reached, lost the queue, or the queue was closed. */
export class QueueError extends Error {
  /**
   * The codes this class's errors carry, one per {@link QueueFailure} (docs/errors.md):
   * `PARL_ERR_QUEUE_UNREACHABLE`, `PARL_ERR_QUEUE_LOST`, `PARL_ERR_QUEUE_STOPPED`.
   */
  static readonly codes = ['PARL_ERR_QUEUE_UNREACHABLE', 'PARL_ERR_QUEUE_LOST', 'PARL_ERR_QUEUE_STOPPED'] as const;
  /** What went wrong. */
  readonly failure: QueueFailure;
  /** The stable code of {@link QueueError.failure}: `PARL_ERR_QUEUE_` and the failure in capitals. */
  readonly code: (typeof QueueError.codes)[number];

  /**
   * @param message - one line saying what happened and how to resume
   * @param failure - what went wrong
   */
  constructor(message: string, failure: QueueFailure) {
    super(message);
    this.name = 'QueueError';
    this.failure = failure;
    this.code = QUEUE_FAILURE_CODES[failure];
  }
}

/**
 * Thrown by a job handler for a job this worker can never run (a package it needs is not
 * installed, a job of a name it does not know): the job fails at once, without a retry.
 */
export class UnrunnableJobError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_UNRUNNABLE_JOB'] as const;
  /** The stable code: `PARL_ERR_UNRUNNABLE_JOB`. */
  readonly code = 'PARL_ERR_UNRUNNABLE_JOB';
  /** @param message - one line: why, and what to do about it */
  constructor(message: string) {
    super(message);
    this.name = 'UnrunnableJobError';
  }
}
