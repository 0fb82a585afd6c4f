/**
 * Sampling a λ schedule over a range of training steps, for `parl schedule`'s table, CSV, JSON
 * and charts. Values come from core's `parseSchedule`; this file only picks the steps.
 *
 * @module
 */
import { ParlInputError, parseSchedule, scheduleEndStep, type ScheduleSpec } from '@parl/core';

/** One row: a training step and the schedule's value there. */
export interface ScheduleSample {
  /** Training step. */
  readonly step: number;
  /** The schedule's value at that step. */
  readonly value: number;
}

/** A schedule sampled over a range. */
export interface ScheduleSamples {
  /** The short form, e.g. `linear:0.1:0:10000`. */
  readonly schedule: string;
  /** The validated JSON form. */
  readonly spec: ScheduleSpec;
  /** The rows, by increasing step. */
  readonly samples: readonly ScheduleSample[];
}

/** Where to sample. */
export interface SampleRange {
  /** First step (default 0). */
  readonly from?: number;
  /** Last step (default: where the schedule stops changing, core's `scheduleEndStep`). */
  readonly to?: number;
  /** Number of rows, ≥ 2 (default 11). */
  readonly points?: number;
}

/**
 * `points` evenly spaced steps from `from` to `to` inclusive; whole steps when the range holds
 * at least one whole step per interval.
 */
export function sampleSteps(from: number, to: number, points: number): number[] {
  const whole = Number.isInteger(from) && Number.isInteger(to) && to - from >= points - 1;
  const steps: number[] = [];
  for (let i = 0; i < points; i++) {
    const s = from + ((to - from) * i) / (points - 1);
    steps.push(whole ? Math.round(s) : s);
  }
  return steps;
}

/**
 * The steps where a schedule changes course: the points of a piecewise schedule, the boundaries of
 * a step schedule, the end of a linear, cosine or exponential one. A table that skipped them could
 * miss a peak (`piecewise:0=0,500=0.1,10000=0` sampled every 1000 steps never shows 0.1).
 */
export function breakpoints(spec: ScheduleSpec): number[] {
  switch (spec.kind) {
    case 'piecewise':
      return spec.points.map((p) => p[0]);
    case 'step':
      return [...spec.boundaries];
    case 'linear':
    case 'cosine':
    case 'exponential':
      return [spec.steps];
    case 'constant':
      return [];
  }
}

/** `steps` with every breakpoint inside [from, to] added, sorted, without repeats. */
function withBreakpoints(steps: readonly number[], marks: readonly number[], from: number, to: number): number[] {
  const inside = marks.filter((m) => m > from && m < to);
  return [...new Set([...steps, ...inside])].sort((a, b) => a - b);
}

/**
 * Parse `spec` (short or JSON form) and sample it: `points` evenly spaced steps, plus every
 * breakpoint of the schedule in the range (see {@link breakpoints}).
 *
 * @throws {@link @parl/core!ParlInputError} for a bad schedule or range (`--to` not above `--from`, fewer than 2 points)
 *
 * @example
 * ```ts
 * sampleSchedule('linear:0.1:0:10000', { points: 3 }).samples;
 * // [{ step: 0, value: 0.1 }, { step: 5000, value: 0.05 }, { step: 10000, value: 0 }]
 * ```
 */
export function sampleSchedule(spec: string, range: SampleRange = {}): ScheduleSamples {
  const schedule = parseSchedule(spec, 'SPEC');
  const from = range.from ?? 0;
  const to = range.to ?? Math.max(scheduleEndStep(schedule), from + 1);
  const points = range.points ?? 11;
  if (!(to > from)) throw new ParlInputError('--to', to, `a step greater than --from (${from})`);
  if (!Number.isInteger(points) || points < 2) throw new ParlInputError('--points', points, 'an integer ≥ 2');
  const steps = withBreakpoints(sampleSteps(from, to, points), breakpoints(schedule.spec), from, to);
  const values = schedule.atMany(steps);
  return {
    schedule: schedule.toString(),
    spec: schedule.spec,
    samples: steps.map((step, i) => ({ step, value: values[i] as number })),
  };
}
