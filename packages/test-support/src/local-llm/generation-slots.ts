/**
 * The endpoint's concurrency: one context sequence per generation running at once, and a bounded
 * queue of requests waiting for one. A request beyond the queue's bound is refused at once.
 *
 * @module
 */

/** The queue is full: the caller answers 503. */
export class SlotsBusyError extends Error {
  override readonly name = 'SlotsBusyError';
}

interface Waiter<T> {
  readonly resolve: (slot: T) => void;
  readonly reject: (reason: unknown) => void;
}

/** A pool of slots (context sequences) handed out one request at a time. */
export class GenerationSlots<T> {
  private readonly free: T[];
  private readonly waiting: Waiter<T>[] = [];

  /**
   * @param slots - the slots, all free at first
   * @param maxWaiting - most requests that may wait for a slot
   */
  constructor(
    slots: readonly T[],
    private readonly maxWaiting: number,
  ) {
    this.free = [...slots];
  }

  /** Requests waiting for a slot now. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /**
   * Take a free slot, or wait for one.
   *
   * @param signal - aborting it while waiting leaves the queue and rejects with its reason
   * @throws SlotsBusyError when no slot is free and the queue is full
   */
  acquire(signal: AbortSignal): Promise<T> {
    const slot = this.free.pop();
    if (slot !== undefined) return Promise.resolve(slot);
    if (this.waiting.length >= this.maxWaiting) {
      return Promise.reject(new SlotsBusyError(`all ${this.maxWaiting} queue places are taken`));
    }
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        resolve: (s) => {
          signal.removeEventListener('abort', onAbort);
          resolve(s);
        },
        reject,
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal.reason);
      };
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Give a slot back: the longest-waiting request gets it. */
  release(slot: T): void {
    const next = this.waiting.shift();
    if (next !== undefined) next.resolve(slot);
    else this.free.push(slot);
  }
}
