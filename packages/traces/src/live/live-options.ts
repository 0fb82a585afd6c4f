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
}

/** Why {@link LiveTraceOptions.onDropped} was called. */
export type LiveDropReason = 'timeout' | 'capacity' | 'unmappable' | 'shutdown';

/** The defaults of {@link LiveTraceOptions}. */
export const DEFAULT_LIVE_OPTIONS = { timeoutMs: 10 * 60 * 1000, maxOpenTraces: 1000 } as const;

/** Check the numeric options; throws a `ParlInputError` (from `@parl/core`) naming a bad one. */
export function checkLiveOptions(options: LiveTraceOptions): { timeoutMs: number; maxOpenTraces: number } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LIVE_OPTIONS.timeoutMs;
  const maxOpenTraces = options.maxOpenTraces ?? DEFAULT_LIVE_OPTIONS.maxOpenTraces;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) throw new ParlInputError('options.timeoutMs', timeoutMs, 'a number of milliseconds > 0');
  if (!Number.isInteger(maxOpenTraces) || maxOpenTraces < 1) throw new ParlInputError('options.maxOpenTraces', maxOpenTraces, 'an integer ≥ 1');
  return { timeoutMs, maxOpenTraces };
}
