/**
 * The episode clock: whole microseconds since the Unix epoch, strictly increasing per reading.
 *
 * Spans carry these times, and the live record's waves are decided by the order of these
 * readings, so `parl trace` (which reads OTLP times exactly to the microsecond and starts a new
 * wave when a sub-agent starts at or after every earlier one ended) sees the same waves.
 *
 * @module
 */
import type { HrTime } from '@opentelemetry/api';

/** A strictly increasing microsecond clock. */
export class MicrosecondClock {
  private last = 0;

  /** The next reading: now, or one microsecond after the previous reading when the clock has not moved. */
  now(): number {
    const wall = Math.floor((performance.timeOrigin + performance.now()) * 1000);
    this.last = wall > this.last ? wall : this.last + 1;
    return this.last;
  }
}

/** A microsecond reading as OpenTelemetry's `[seconds, nanoseconds]`. */
export function hrTimeOf(us: number): HrTime {
  return [Math.floor(us / 1e6), (us % 1e6) * 1000];
}
