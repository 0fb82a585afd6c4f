/**
 * What the dashboard shows: per-second (and per training step) means of critical steps,
 * parallelism, sub-agents, finish rate, reward and the share of serial-collapse findings, over
 * the episodes the server accepted. Bounded: the last {@link SERIES_SECONDS} seconds and
 * {@link SERIES_STEPS} training steps. Here: each episode's point, the snapshot `/events` sends
 * and the view the server offers ({@link DashboardStats}); the running aggregates themselves are
 * internal (`internal/live-stats.ts`).
 *
 * @module
 */
import { criticalSteps, subagentCounts, type StageRecord, type SubagentCounts } from '@parl/core';
import type { SerialCollapseFinding } from '@parl/traces';

/** Seconds of history kept for the time series. */
export const SERIES_SECONDS = 900;
/** Training steps kept for the per-step series. */
export const SERIES_STEPS = 500;

/** The per-episode numbers the dashboard averages (spec §5 / §3 names; `finish_rate` is the sub-agents' finish rate). */
export const STATS_FIELDS = ['critical_steps', 'parallelism', 'num_subagents', 'finish_rate', 'total_reward'] as const;

/** One of {@link STATS_FIELDS}. */
export type StatsField = (typeof STATS_FIELDS)[number];


/** The dashboard's view of one episode. */
export type EpisodePoint = Partial<Record<StatsField, number>> & {
  /** The finding's verdict, when the episode came from a trace. */
  readonly serial_collapse?: boolean;
  /** The record's training step, when it has one. */
  readonly training_step?: number;
};

/** One point of a series: means over the episodes of one second (or one training step). */
export interface SeriesPoint extends Partial<Record<StatsField, number>> {
  /** Unix seconds, or the training step. */
  readonly x: number;
  /** Episodes in it. */
  readonly episodes: number;
  /** Share of the traced episodes in it with a serial-collapse finding. */
  readonly serial_collapse?: number;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * The dashboard point of a record (labelled or not) and its finding: critical steps and
 * parallelism as labelled, else from `stages` with core's `criticalSteps`; sub-agents launched and
 * their finish rate by core's one rule (`subagentCounts`: an episode that launched none has no
 * finish rate, and is left out of the mean).
 */
export function episodePoint(record: Readonly<Record<string, unknown>>, finding?: SerialCollapseFinding): EpisodePoint {
  const p: Partial<Record<StatsField, number>> & { serial_collapse?: boolean; training_step?: number } = {};
  const stages = Array.isArray(record['stages']) ? (record['stages'] as StageRecord[]) : undefined;
  let cs = num(record['critical_steps']);
  let par = num(record['parallelism']);
  if (stages !== undefined && (cs === undefined || par === undefined)) {
    try {
      const r = criticalSteps(stages);
      cs ??= r.critical_steps;
      par ??= r.parallelism;
    } catch {
      // an invalid record never reaches here (it was validated); nothing to plot otherwise
    }
  }
  let counts: SubagentCounts | undefined;
  try {
    counts = subagentCounts(record);
  } catch {
    counts = undefined; // as above: validated before it is counted
  }
  const subs = counts?.launched;
  const finish = counts?.finish_rate ?? undefined;
  if (cs !== undefined) p.critical_steps = cs;
  if (par !== undefined) p.parallelism = par;
  if (subs !== undefined) p.num_subagents = subs;
  if (finish !== undefined) p.finish_rate = finish;
  const reward = num(record['total_reward']);
  if (reward !== undefined) p.total_reward = reward;
  const step = num(record['training_step']);
  if (step !== undefined) p.training_step = step;
  if (finding !== undefined) p.serial_collapse = finding.serial_collapse;
  return p;
}


/** What `/events` sends: the series and totals. */
export interface StatsSnapshot {
  /** Per-second means, oldest first. */
  readonly seconds: readonly SeriesPoint[];
  /** Per-training-step means, by step. */
  readonly steps: readonly SeriesPoint[];
  /** Means over every episode since start. */
  readonly total: SeriesPoint;
}

/** The dashboard's aggregates as the server offers them: a snapshot, and a call after each episode. */
export interface DashboardStats {
  /** The series and totals now. */
  snapshot(): StatsSnapshot;
  /** Call `listener` after each episode counted; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}
