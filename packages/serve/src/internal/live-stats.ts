/**
 * The running aggregates behind the dashboard (`/events`): per-second and per-training-step means
 * of the {@link STATS_FIELDS} over the episodes the server accepted, bounded to the last
 * {@link SERIES_SECONDS} seconds and {@link SERIES_STEPS} training steps. Internal: the server
 * offers it as {@link DashboardStats}.
 *
 * @module
 */
import { SERIES_SECONDS, SERIES_STEPS, STATS_FIELDS, type DashboardStats, type EpisodePoint, type SeriesPoint, type StatsField, type StatsSnapshot } from '../dashboard/live-stats.js';

interface Acc {
  episodes: number;
  sums: Record<StatsField, number>;
  counts: Record<StatsField, number>;
  serial: number;
  traced: number;
}

function emptyAcc(): Acc {
  const zero = (): Record<StatsField, number> => ({ critical_steps: 0, parallelism: 0, num_subagents: 0, finish_rate: 0, total_reward: 0 });
  return { episodes: 0, sums: zero(), counts: zero(), serial: 0, traced: 0 };
}

function addTo(acc: Acc, p: EpisodePoint): void {
  acc.episodes += 1;
  for (const f of STATS_FIELDS) {
    const v = p[f];
    if (v !== undefined && Number.isFinite(v)) {
      acc.sums[f] += v;
      acc.counts[f] += 1;
    }
  }
  if (p.serial_collapse !== undefined) {
    acc.traced += 1;
    if (p.serial_collapse) acc.serial += 1;
  }
}

/**
 * `Math.min(...map.keys())` without spreading the keys into a list: the steps' series drops its
 * lowest step for each new one past {@link SERIES_STEPS}, which a body spanning many training steps
 * does for most of its records, and the spread list of 500 keys each time was most of the event
 * loop's garbage while such a body was counted.
 */
function lowestKey(map: ReadonlyMap<number, unknown>): number {
  let lowest = Number.POSITIVE_INFINITY;
  for (const key of map.keys()) {
    if (Number.isNaN(key)) return Number.NaN;
    if (key < lowest) lowest = key;
  }
  return lowest;
}

function pointOf(x: number, acc: Acc): SeriesPoint {
  const out: Record<string, number> = { x, episodes: acc.episodes };
  for (const f of STATS_FIELDS) if (acc.counts[f] > 0) out[f] = acc.sums[f] / acc.counts[f];
  if (acc.traced > 0) out['serial_collapse'] = acc.serial / acc.traced;
  return out as unknown as SeriesPoint;
}

/** The running aggregates behind the dashboard. */
export class LiveStats implements DashboardStats {
  private readonly seconds = new Map<number, Acc>();
  private readonly steps = new Map<number, Acc>();
  private readonly total = emptyAcc();
  private readonly listeners = new Set<() => void>();

  /** @param now - the clock (ms) */
  constructor(private readonly now: () => number = Date.now) {}

  /** Count one episode. */
  add(point: EpisodePoint): void {
    this.count(point, Math.floor(this.now() / 1000));
    for (const l of this.listeners) l();
  }

  /** Count several episodes (one clock reading, and the listeners called once). */
  addMany(points: Iterable<EpisodePoint>): void {
    const second = Math.floor(this.now() / 1000);
    let any = false;
    for (const point of points) {
      this.count(point, second);
      any = true;
    }
    if (any) for (const l of this.listeners) l();
  }

  private count(point: EpisodePoint, second: number): void {
    let acc = this.seconds.get(second);
    if (acc === undefined) {
      acc = emptyAcc();
      this.seconds.set(second, acc);
      for (const s of this.seconds.keys()) {
        if (s > second - SERIES_SECONDS) break;
        this.seconds.delete(s);
      }
    }
    addTo(acc, point);
    addTo(this.total, point);
    if (point.training_step !== undefined) {
      let stepAcc = this.steps.get(point.training_step);
      if (stepAcc === undefined) {
        // A new step below every step of a full series would be added and dropped at once: left
        // out instead (the same series), so that a body revisiting old steps does not churn the
        // map, which at 500 steps rehashed its table every dozen such records.
        if (this.steps.size >= SERIES_STEPS && point.training_step < lowestKey(this.steps)) return;
        stepAcc = emptyAcc();
        this.steps.set(point.training_step, stepAcc);
        if (this.steps.size > SERIES_STEPS) {
          this.steps.delete(lowestKey(this.steps));
        }
      }
      addTo(stepAcc, point);
    }
  }

  /** The series and totals now. */
  snapshot(): StatsSnapshot {
    return {
      seconds: [...this.seconds].map(([s, acc]) => pointOf(s, acc)),
      steps: [...this.steps].sort(([a], [b]) => a - b).map(([s, acc]) => pointOf(s, acc)),
      total: pointOf(0, this.total),
    };
  }

  /** Call `listener` after each episode; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
