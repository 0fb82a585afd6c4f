/**
 * One call's deadline: a timer and a parent signal (the episode's, a caller's) as one abort
 * signal. Built from an `AbortController` (its signal made only when asked for) and a
 * `setTimeout`; the parent signal has one listener for all its open deadlines (an `EventTarget`
 * listener list is searched on every add and remove: with hundreds of calls in flight that cost
 * more than the call). `AbortSignal.any` and `AbortSignal.timeout` cost some 20 and 10 µs each on
 * Node 20, more than a whole tool call may. Used for every tool call and every model-call attempt.
 *
 * @module
 */

/** The open deadlines of each parent signal, told by the parent's one listener when it aborts. */
const openUnder = new WeakMap<AbortSignal, Set<CallDeadline>>();

function register(parent: AbortSignal, deadline: CallDeadline): void {
  let open = openUnder.get(parent);
  if (open === undefined) {
    const set = new Set<CallDeadline>();
    open = set;
    openUnder.set(parent, set);
    parent.addEventListener('abort', () => {
      for (const d of set) d.parentAborted();
      set.clear();
    }, { once: true });
  }
  open.add(deadline);
}

/** A call's deadline: aborted when its time is up or its parent signal aborts. */
export class CallDeadline {
  private controller: AbortController | undefined;
  private readonly timer: ReturnType<typeof setTimeout>;
  private cutPromise: Promise<never> | undefined;
  private rejectCut: ((reason: unknown) => void) | undefined;
  private reason: unknown;
  /** Whether the deadline came (the time ran out, or the parent aborted). */
  aborted = false;
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
    if (parent?.aborted === true) this.abort(parent.reason);
    else if (parent !== undefined) register(parent, this);
  }

  private readonly onTimeout = (): void => {
    this.timedOut = true;
    this.abort(new DOMException('the call timed out', 'TimeoutError'));
  };

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.rejectCut?.(reason);
  }

  /** The parent aborted (told by its listener). */
  parentAborted(): void {
    clearTimeout(this.timer);
    this.abort(this.parent?.reason);
  }

  /** Aborted at the deadline or when the parent aborts (made on first use). */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Rejects with the abort's reason at the deadline or when the parent aborts (made on first use). */
  get cut(): Promise<never> {
    if (this.cutPromise === undefined) {
      this.cutPromise = new Promise<never>((_, reject) => {
        if (this.aborted) reject(this.reason);
        else this.rejectCut = reject;
      });
      this.cutPromise.catch(() => undefined);
    }
    return this.cutPromise;
  }

  /** The call is done: stop the timer and leave the parent's list. */
  clear(): void {
    clearTimeout(this.timer);
    if (this.parent !== undefined) openUnder.get(this.parent)?.delete(this);
  }
}
