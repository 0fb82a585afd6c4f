/**
 * Options of the live processors ({@link ParlSpanProcessor}, {@link ParlTracingProcessor}).
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { TraceOptions } from '../options.js';
import type { TraceResult } from '../trace-result.js';

/** Options of the live processors: where results go, and how long an unfinished trace is kept. */
export interface LiveTraceOptions extends Pick<TraceOptions, 'grouping' | 'stepsFrom' | 'clock' | 'strict'> {
  /** Called with each finished trace's record and finding. */
  readonly onResult?: (result: TraceResult) => void;
  /** Append each finished trace's spec §5 record to this JSONL file (as `parl trace` writes it). */
  readonly recordsFile?: string;
  /** Append each finished trace's finding to this JSONL file (as `parl trace --findings` writes it). */
  readonly findingsFile?: string;
  /** Called with warnings and with traces that could not be mapped (default: `process.emitWarning`). */
  readonly onWarning?: (message: string) => void;
  /**
   * Called with the id of each trace dropped unmapped, and why: `timeout` (still open after
   * {@link LiveTraceOptions.timeoutMs}), `capacity` (over {@link LiveTraceOptions.maxOpenTraces}),
   * `unmappable` (a span could not be read, or the trace could not be mapped) or `shutdown`
   * (dropped at shutdown). The warning is given too.
   */
  readonly onDropped?: (traceId: string, reason: LiveDropReason) => void;
  /** A trace still open after its first span is dropped with a warning (default 10 minutes). */
  readonly timeoutMs?: number;
  /** At most this many traces are held open; the oldest is dropped with a warning beyond it (default 1000). */
  readonly maxOpenTraces?: number;
  /**
   * At most this many spans are held for one open trace (default 50,000); a trace that gets more
   * is dropped with a warning (reason `trace-spans`) and its later spans are discarded.
   */
  readonly maxSpansPerTrace?: number;
  /**
   * At most this many spans are held over all open traces (default 1,000,000); beyond it the
   * oldest open traces are dropped with a warning (reason `open-spans`) until the new span fits.
   */
  readonly maxOpenSpans?: number;
}

/** Why {@link LiveTraceOptions.onDropped} was called. */
export type LiveDropReason = 'timeout' | 'capacity' | 'trace-spans' | 'open-spans' | 'unmappable' | 'shutdown';

/** The defaults of {@link LiveTraceOptions}. */
export const DEFAULT_LIVE_OPTIONS = { timeoutMs: 10 * 60 * 1000, maxOpenTraces: 1000, maxSpansPerTrace: 50_000, maxOpenSpans: 1_000_000 } as const;

/** The numeric options of {@link LiveTraceOptions}, checked, with defaults. */
export interface LiveBounds {
  /** See {@link LiveTraceOptions.timeoutMs}. */
  readonly timeoutMs: number;
  /** See {@link LiveTraceOptions.maxOpenTraces}. */
  readonly maxOpenTraces: number;
  /** See {@link LiveTraceOptions.maxSpansPerTrace}. */
  readonly maxSpansPerTrace: number;
  /** See {@link LiveTraceOptions.maxOpenSpans}. */
  readonly maxOpenSpans: number;
}

/** Check the numeric options; throws a `ParlInputError` (from `@parl/core`) naming a bad one. */
export function checkLiveOptions(options: LiveTraceOptions): LiveBounds {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LIVE_OPTIONS.timeoutMs;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) throw new ParlInputError('options.timeoutMs', timeoutMs, 'a number of milliseconds > 0');
  const count = (name: 'maxOpenTraces' | 'maxSpansPerTrace' | 'maxOpenSpans'): number => {
    const value = options[name] ?? DEFAULT_LIVE_OPTIONS[name];
    if (!Number.isInteger(value) || value < 1) throw new ParlInputError(`options.${name}`, value, 'an integer ≥ 1');
    return value;
  };
  return { timeoutMs, maxOpenTraces: count('maxOpenTraces'), maxSpansPerTrace: count('maxSpansPerTrace'), maxOpenSpans: count('maxOpenSpans') };
}
