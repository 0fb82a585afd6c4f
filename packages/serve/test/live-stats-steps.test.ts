/**
 * The dashboard's steps series past `SERIES_STEPS` training steps drops its lowest step for each
 * new one (found without spreading the keys), and a body's packed points counted through one reused
 * object (`reusedPoints`) give the same series and totals as an object per point.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERIES_STEPS, type EpisodePoint } from '../src/dashboard/live-stats.js';
import { LiveStats } from '../src/internal/live-stats.js';
import { packPoint, POINT_WIDTH, reusedPoints, unpackPoint } from '../src/internal/packed-points.js';

describe('LiveStats steps series', () => {
  it('keeps the highest SERIES_STEPS steps seen, whatever their order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 2 * SERIES_STEPS }), { minLength: 1, maxLength: 3 * SERIES_STEPS }), (steps) => {
        const stats = new LiveStats(() => 0);
        stats.addMany(steps.map((training_step) => ({ training_step, num_subagents: 1 })));
        // The series as the spread Math.min kept it: each new step past the bound drops the lowest held.
        const held = new Set<number>();
        for (const s of steps) {
          if (held.has(s)) continue;
          held.add(s);
          if (held.size > SERIES_STEPS) held.delete(Math.min(...held));
        }
        expect(stats.snapshot().steps.map((p) => p.x)).toEqual([...held].sort((a, b) => a - b));
      }),
      { numRuns: 30 },
    );
  });

  it('counts packed points through one reused object as it counts one object per point', () => {
    const field = fc.option(fc.double({ noNaN: true }), { nil: undefined });
    const point = fc.record({ critical_steps: field, parallelism: field, num_subagents: field, finish_rate: field, total_reward: field, training_step: fc.option(fc.integer({ min: 0, max: 700 }), { nil: undefined }) }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 60 }), (raw) => {
        const points = raw.map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as EpisodePoint);
        const packed = new Float64Array(points.length * POINT_WIDTH);
        points.forEach((p, i) => packPoint(packed, i, p));
        const one = new LiveStats(() => 0);
        one.addMany(points.map((_, i) => unpackPoint(packed, i)));
        const reused = new LiveStats(() => 0);
        reused.addMany(reusedPoints(packed, 0, points.length));
        expect(reused.snapshot()).toEqual(one.snapshot());
      }),
      { numRuns: 200 },
    );
  });
});
