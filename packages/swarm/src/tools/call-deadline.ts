/**
 * One call's deadline: a timer and a parent signal (the episode's, a caller's) as one abort
 * signal. Built from an `AbortController`, a `setTimeout` and one listener — `AbortSignal.any` and
 * `AbortSignal.timeout` cost some 20 and 10 µs each on Node 20, more than a whole tool call may —
 * and cleared when the call is done. Used for every tool call and every model-call attempt.
 *
 * @module
 */

/** A call's deadline: aborted when its time is up or its parent signal aborts. */
export class CallDeadline {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private cutPromise: Promise<never> | undefined;
  /** Whether the time ran out (rather than the parent aborting). */
  timedOut = false;

  /**
   * @param timeoutMs - the call's time
   * @param parent - a signal that aborts the call too (none: only the time)
   */
  constructor(
    timeoutMs: number,
    private readonly parent?: AbortSignal,
  ) {
    this.timer = setTimeout(this.onTimeout, timeoutMs);
    if (parent?.aborted === true) this.controller.abort(parent.reason);
    else parent?.addEventListener('abort', this.onParentAbort, { once: true });
  }

  private readonly onTimeout = (): void => {
    this.timedOut = true;
    this.controller.abort(new DOMException('the call timed out', 'TimeoutError'));
  };

  private readonly onParentAbort = (): void => {
    clearTimeout(this.timer);
    this.controller.abort(this.parent?.reason);
  };

  /** Aborted at the deadline or when the parent aborts. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Rejects with the signal's reason when it aborts (made on first use). */
  get cut(): Promise<never> {
    if (this.cutPromise === undefined) {
      const signal = this.controller.signal;
      this.cutPromise = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      this.cutPromise.catch(() => undefined);
    }
    return this.cutPromise;
  }

  /** The call is done: stop the timer and stop listening to the parent. */
  clear(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.onParentAbort);
  }
}
