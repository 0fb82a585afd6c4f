/**
 * Live assembly of exported spans (an OTLP receiver's side): spans of read export requests go to
 * their open trace in a {@link LiveTraceAssembler}; a trace becomes a result once its root span has
 * come and no span of it came for the quiet period (exporters send a root's children in other
 * batches, before or after it). Finished traces are mapped one per event-loop turn, so a burst
 * of them never holds the loop for the time of all; a {@link LiveIntakeOptions.mapTrace} may map
 * one elsewhere (a worker thread), the next waiting for it.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { OtlpExportRead } from '../otlp/export-request.js';
import type { TraceSpan } from '../span.js';
import type { TraceResult } from '../trace-result.js';
import { LiveTraceAssembler } from './live-assembler.js';
import type { LiveDropReason, LiveTraceOptions } from './live-options.js';

/** How a {@link LiveTraceIntake} is set up. */
export interface LiveIntakeOptions extends Omit<LiveTraceOptions, 'onResult' | 'recordsFile' | 'findingsFile' | 'onDropped'> {
  /** A trace is finished this long (ms) after its root span came with no span since (0: at once). */
  readonly quietPeriodMs: number;
  /** Called for each finished trace, with the rollout id a span of it named. */
  readonly onEpisode: (result: TraceResult, rollout: string | undefined) => void;
  /** Called for each trace dropped unfinished or unmappable, and why. */
  readonly onDropped: (traceId: string, reason: LiveDropReason) => void;
  /**
   * Maps a finished trace instead of `traceToResult` on the calling thread (default: that). Given
   * the trace's spans and its mapping options, it returns what `traceToResult` returns for them, or
   * a promise of it (the next trace waits); a rejection drops the trace as unmappable with the
   * error's message. A result that comes after {@link LiveTraceIntake.close} is ignored.
   */
  readonly mapTrace?: (traceId: string, spans: readonly TraceSpan[], options: LiveTraceAssembler['mappingOptions']) => TraceResult | Promise<TraceResult>;
}

/** Open traces of exported spans, finished after a quiet period. */
export class LiveTraceIntake {
  private readonly assembler: LiveTraceAssembler;
  private readonly timer: NodeJS.Timeout;
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private draining = false;
  private closed = false;
  /** Open {@link LiveTraceIntake.hold}s: while any is, no trace is finished. */
  private holds = 0;

  /**
   * @param options - see {@link LiveIntakeOptions}
   * @param now - the clock (ms), replaceable in tests
   * @throws `ParlInputError` (from `@parl/core`) for a bad option
   */
  constructor(
    private readonly options: LiveIntakeOptions,
    now: () => number = Date.now,
  ) {
    if (typeof options.quietPeriodMs !== 'number' || !(options.quietPeriodMs >= 0)) throw new ParlInputError('options.quietPeriodMs', options.quietPeriodMs, 'a number of milliseconds ≥ 0');
    const { onEpisode: _onEpisode, quietPeriodMs: _quiet, mapTrace: _map, ...live } = options;
    this.assembler = new LiveTraceAssembler({ ...live, onDropped: (traceId, reason) => options.onDropped(traceId, reason) }, now);
    this.timer = setInterval(() => this.sweep(), Math.min(1000, Math.max(10, options.quietPeriodMs / 4)));
    this.timer.unref();
  }

  /** Unfinished traces held. */
  get openTraces(): number {
    return this.assembler.openTraces;
  }

  /** Spans held over all unfinished traces. */
  get openSpans(): number {
    return this.assembler.openSpans;
  }

  /** Add the spans of one read export request (see `readExportRequest`). */
  add(request: Pick<OtlpExportRead, 'reads' | 'rollouts'>): void {
    for (const read of request.reads) this.assembler.add(read, read.traceId === undefined ? undefined : request.rollouts[read.traceId]);
    if (this.options.quietPeriodMs === 0) this.sweep();
  }

  /**
   * Finish no trace until the returned function is called: for the spans of one request added in
   * several calls of {@link LiveTraceIntake.add} (with the event loop served between them), so
   * that no trace is finished with only part of the request's spans. Stale traces still expire.
   */
  hold(): () => void {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds === 0 && this.options.quietPeriodMs === 0) this.sweep();
    };
  }

  /** Evict stale traces, and queue the traces whose quiet period has passed to be finished (none while held). */
  sweep(): void {
    if (this.closed) return;
    this.assembler.expire();
    if (this.holds > 0) return;
    for (const traceId of this.assembler.quietTraces(this.options.quietPeriodMs)) {
      if (this.queued.has(traceId)) continue;
      this.queued.add(traceId);
      this.queue.push(traceId);
    }
    if (!this.draining && this.queue.length > 0) {
      this.draining = true;
      setImmediate(() => this.finishNext());
    }
  }

  /** Finish every queued trace now (what is left at shutdown, or in tests); a trace given to an asynchronous {@link LiveIntakeOptions.mapTrace} finishes when its mapping does. */
  flush(): void {
    while (this.queue.length > 0) void this.finishOne();
  }

  private finishNext(): void {
    if (this.closed) return;
    const pending = this.finishOne();
    const next = (): void => {
      if (this.closed) return;
      if (this.queue.length > 0) setImmediate(() => this.finishNext());
      else this.draining = false;
    };
    if (pending === undefined) next();
    else void pending.then(next);
  }

  /** Finish the first queued trace; a promise while its mapping runs elsewhere. */
  private finishOne(): Promise<void> | undefined {
    const traceId = this.queue.shift();
    if (traceId === undefined) return undefined;
    this.queued.delete(traceId);
    const rollout = this.assembler.rolloutOf(traceId);
    const mapTrace = this.options.mapTrace;
    if (mapTrace === undefined) {
      const result = this.assembler.complete(traceId);
      if (result !== undefined) this.options.onEpisode(result, rollout);
      return undefined;
    }
    const spans = this.assembler.take(traceId);
    if (spans === undefined) return undefined;
    let mapping: TraceResult | Promise<TraceResult>;
    try {
      mapping = mapTrace(traceId, spans, this.assembler.mappingOptions);
    } catch (err) {
      this.assembler.failed(traceId, err instanceof Error ? err.message : String(err));
      return undefined;
    }
    if (!(mapping instanceof Promise)) {
      this.options.onEpisode(this.assembler.mapped(mapping), rollout);
      return undefined;
    }
    return mapping.then(
      (result) => {
        if (!this.closed) this.options.onEpisode(this.assembler.mapped(result), rollout);
      },
      (err: unknown) => {
        if (!this.closed) this.assembler.failed(traceId, err instanceof Error ? err.message : String(err));
      },
    );
  }

  /** Stop the timer and drop what is still open, with `why` as the warning. */
  close(why: string): void {
    this.closed = true;
    clearInterval(this.timer);
    this.assembler.dropAll(why);
  }
}
