/**
 * Dashboard points packed into a `Float64Array`, so that a labelling thread hands back the
 * points of a whole body as one transferable array instead of an object per record.
 *
 * Each point takes {@link POINT_WIDTH} numbers: the {@link STATS_FIELDS} in their order, then the
 * training step. A field the point does not have is stored as NaN, which stands for "absent"
 * here only: {@link unpackPoint} turns it back into a missing field, never into a number.
 *
 * @module
 */
import { STATS_FIELDS, type EpisodePoint, type StatsField } from '../dashboard/live-stats.js';

/** Numbers per packed point: the stats fields and the training step. */
export const POINT_WIDTH = STATS_FIELDS.length + 1;

/** Write `point` as the `i`-th point of `into`. */
export function packPoint(into: Float64Array, i: number, point: EpisodePoint): void {
  const at = i * POINT_WIDTH;
  for (let f = 0; f < STATS_FIELDS.length; f++) into[at + f] = point[STATS_FIELDS[f] as StatsField] ?? Number.NaN;
  into[at + STATS_FIELDS.length] = point.training_step ?? Number.NaN;
}

/** The `i`-th point of `from` (fields stored as NaN are left out). */
export function unpackPoint(from: Float64Array, i: number): EpisodePoint {
  const at = i * POINT_WIDTH;
  const point: Partial<Record<StatsField, number>> & { training_step?: number } = {};
  for (let f = 0; f < STATS_FIELDS.length; f++) {
    const v = from[at + f] as number;
    if (!Number.isNaN(v)) point[STATS_FIELDS[f] as StatsField] = v;
  }
  const step = from[at + STATS_FIELDS.length] as number;
  if (!Number.isNaN(step)) point.training_step = step;
  return point;
}

/** Points packed in `from`. */
export function packedPointCount(from: Float64Array): number {
  return from.length / POINT_WIDTH;
}

/**
 * Points `start` to `end` of `from` for counting, as one object rewritten for each point (valid
 * until the next is read): a field stored as NaN is NaN here, which the dashboard's sums skip as
 * they skip a missing field (they count finite numbers only), and an absent training step is
 * undefined. A body's points are counted so without an object per record on the event loop.
 */
export function* reusedPoints(from: Float64Array, start: number, end: number): Generator<EpisodePoint> {
  const point: Record<string, number | undefined> = {};
  for (const f of STATS_FIELDS) point[f] = Number.NaN;
  point['training_step'] = undefined;
  for (let i = start; i < end; i++) {
    const at = i * POINT_WIDTH;
    for (let f = 0; f < STATS_FIELDS.length; f++) point[STATS_FIELDS[f] as StatsField] = from[at + f] as number;
    const step = from[at + STATS_FIELDS.length] as number;
    point['training_step'] = Number.isNaN(step) ? undefined : step;
    yield point as EpisodePoint;
  }
}
