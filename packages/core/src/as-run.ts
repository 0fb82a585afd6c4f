/**
 * The as-run grouping rule of spec §7 and §10: how the sub-agents of one orchestrator turn,
 * given when each started and ended, become one stage's group with `wait_steps` (spec §2). The
 * swarm's live record (through {@link CriticalStepsMeter}) and the trace reader both use it, so a
 * record built live and the record read back from its spans agree.
 *
 * @module
 */
import { ParlInputError, fieldPath, requireArray, requireFinite, requireNonNegative, requireObject } from './errors.js';

/** One sub-agent of a turn as it ran: when it started and ended (any one clock), and its steps. */
export interface TimedRun {
  /** When it started. */
  readonly start: number;
  /** When it ended (≥ start). */
  readonly end: number;
  /** Its steps (finite, ≥ 0); for a nested entry (spec §5.2), its own critical steps. */
  readonly steps: number;
}

/**
 * The order in which runs are taken: by start, then end, then position. Run j can precede run i
 * only when j comes first in this order, which keeps two zero-length runs at the same instant
 * from preceding each other.
 */
function runOrder(runs: readonly TimedRun[]): number[] {
  const order = runs.map((_, i) => i);
  order.sort((a, b) => {
    const x = runs[a] as TimedRun;
    const y = runs[b] as TimedRun;
    return x.start - y.start || x.end - y.end || a - b;
  });
  return order;
}

/** A binary min-heap of run indices keyed by their end, then their place in {@link runOrder}. */
class EndHeap {
  private readonly items: number[] = [];
  constructor(private readonly key: (i: number) => readonly [number, number]) {}

  get size(): number {
    return this.items.length;
  }

  peek(): number | undefined {
    return this.items[0];
  }

  private less(a: number, b: number): boolean {
    const [ea, ra] = this.key(a);
    const [eb, rb] = this.key(b);
    return ea < eb || (ea === eb && ra < rb);
  }

  push(i: number): void {
    const h = this.items;
    h.push(i);
    let k = h.length - 1;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!this.less(h[k] as number, h[p] as number)) break;
      [h[k], h[p]] = [h[p] as number, h[k] as number];
      k = p;
    }
  }

  pop(): number | undefined {
    const h = this.items;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last !== undefined) {
      h[0] = last;
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < h.length && this.less(h[l] as number, h[m] as number)) m = l;
        if (r < h.length && this.less(h[r] as number, h[m] as number)) m = r;
        if (m === k) break;
        [h[k], h[m]] = [h[m] as number, h[k] as number];
        k = m;
      }
    }
    return top;
  }
}

function checkRuns(runs: readonly TimedRun[], field: string): void {
  requireArray(runs, field);
  runs.forEach((run, i) => {
    const at = fieldPath(field, i);
    requireObject(run, at);
    const start = requireFinite(run.start, fieldPath(at, 'start'));
    const end = requireFinite(run.end, fieldPath(at, 'end'));
    if (end < start) throw new ParlInputError(fieldPath(at, 'end'), end, `at least its start (${start})`);
    requireNonNegative(run.steps, fieldPath(at, 'steps'));
  });
}

/**
 * The `wait_steps` (spec §2, §7) of each sub-agent of one orchestrator turn, as run: the heaviest
 * chain of the turn's sub-agents that had ended before it started, a chain's weight being the sum
 * of its links' `wait_steps + steps` (run j precedes run i when j ended before, or at the instant,
 * i started). 0 for a sub-agent that started before any of the turn's sub-agents had ended — those
 * launched together. `max_i (wait_i + steps_i)` is then the turn's group term in critical steps:
 * the heaviest chain of the turn.
 *
 * Runs in O(n log n).
 *
 * @param runs - the turn's sub-agents, any order; times on any one clock
 * @returns each run's wait_steps, in the order of `runs`
 * @throws {@link ParlInputError} for a time that is not finite, an end before its start, or steps
 *   that are negative or not finite
 *
 * @example
 * ```ts
 * // Four sub-agents of 3 steps, two slots: the second pair waits for the first.
 * asRunWaitSteps([
 *   { start: 0, end: 3, steps: 3 }, { start: 0, end: 3, steps: 3 },
 *   { start: 3, end: 6, steps: 3 }, { start: 3, end: 6, steps: 3 },
 * ]); // [0, 0, 3, 3]
 * ```
 */
export function asRunWaitSteps(runs: readonly TimedRun[]): number[] {
  checkRuns(runs, 'runs');
  const order = runOrder(runs);
  const rank = new Int32Array(runs.length);
  order.forEach((i, r) => {
    rank[i] = r;
  });
  const wait = new Array<number>(runs.length).fill(0);
  const ended = new EndHeap((i) => [(runs[i] as TimedRun).end, rank[i] as number]);
  // The heaviest chain among the runs released so far (those that ended by the current start).
  let heaviest = 0;
  for (const i of order) {
    const start = (runs[i] as TimedRun).start;
    for (let j = ended.peek(); j !== undefined && (runs[j] as TimedRun).end <= start; j = ended.peek()) {
      ended.pop();
      const chain = (wait[j] as number) + (runs[j] as TimedRun).steps;
      if (chain > heaviest) heaviest = chain;
    }
    wait[i] = heaviest;
    ended.push(i);
  }
  return wait;
}

/** A time interval: when something started and ended. */
export interface TimeSpan {
  /** Its start. */
  readonly start: number;
  /** Its end. */
  readonly end: number;
}

/**
 * Split intervals into waves that overlap in time: in start order, a new wave begins with an
 * interval that starts at or after every earlier one ended. The finding's `waves` pattern (spec
 * §7), and the waves of tool calls from which VoltAgent model calls are derived, use this rule.
 *
 * @param spans - the intervals, any order
 * @returns the indices of `spans` in each wave, waves in time order, each in start order
 *
 * @example
 * ```ts
 * overlapWaves([{ start: 0, end: 2 }, { start: 1, end: 3 }, { start: 3, end: 4 }]); // [[0, 1], [2]]
 * ```
 */
export function overlapWaves(spans: readonly TimeSpan[]): number[][] {
  const order = spans.map((_, i) => i);
  order.sort((a, b) => (spans[a] as TimeSpan).start - (spans[b] as TimeSpan).start || (spans[a] as TimeSpan).end - (spans[b] as TimeSpan).end || a - b);
  const waves: number[][] = [];
  let current: number[] = [];
  let end = -Infinity;
  for (const i of order) {
    const span = spans[i] as TimeSpan;
    if (current.length > 0 && span.start >= end) {
      waves.push(current);
      current = [];
      end = -Infinity;
    }
    current.push(i);
    end = Math.max(end, span.end);
  }
  if (current.length > 0) waves.push(current);
  return waves;
}
