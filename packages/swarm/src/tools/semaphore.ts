/**
 * A first-in first-out counting semaphore: the concurrency bound of a tool provider, and of the
 * sub-agents running at once over an episode's whole tree.
 *
 * @module
 */

/** One held place. */
export interface Lease {
  /** Give the place back (once; later calls do nothing). */
  release(): void;
  /**
   * Give the place back while `wait` runs (a sub-agent waiting for its own sub-agents holds no
   * place), then take one again, ahead of anyone who has not started yet.
   */
  suspend<T>(wait: () => Promise<T>): Promise<T>;
}

interface Waiter {
  readonly grant: () => void;
  /** Set when it stopped waiting (its signal aborted): it is passed over. */
  gone?: boolean;
}

/** At most `size` holders at once; the others wait in the order they asked. */
export class Semaphore {
  private free: number;
  private readonly queue: Waiter[] = [];
  private head = 0;

  /** @param size - places (≥ 1; `Infinity` for no bound) */
  constructor(readonly size: number) {
    this.free = size;
  }

  /** Places held now. */
  get held(): number {
    return this.size - this.free;
  }

  /**
   * Take a place: at once when one is free (granted in the order asked), else when one is given
   * back. A wait that `signal` aborts ends (rejecting with its reason) and holds no place.
   */
  acquire(signal?: AbortSignal): Promise<Lease> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    if (this.free > 0 && this.head === this.queue.length) {
      this.free--;
      return Promise.resolve(this.lease());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.lease());
        },
      };
      const onAbort = (): void => {
        waiter.gone = true;
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private retake(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    // Ahead of everyone waiting: it held a place before they asked.
    return new Promise((resolve) => {
      this.queue.splice(this.head, 0, { grant: resolve });
    });
  }

  private giveBack(): void {
    let next = this.queue[this.head];
    while (next?.gone === true) next = this.queue[++this.head];
    if (next === undefined) {
      this.free++;
      return;
    }
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    next.grant();
  }

  private lease(): Lease {
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.giveBack();
      },
      suspend: async <T>(wait: () => Promise<T>): Promise<T> => {
        if (!held) return wait();
        this.giveBack();
        try {
          return await wait();
        } finally {
          await this.retake();
        }
      },
    };
  }
}
