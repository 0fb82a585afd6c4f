/**
 * The options of trace ingestion and their defaults, declared once as {@link TRACE_OPTIONS} (the
 * types are derived from it). This module is also the package's small `@parl/traces/options`
 * entry: `@parl/core` only, so that a command's help can show the flags without loading the
 * trace readers.
 *
 * @module
 */
import { choiceOption, defineOptionTable, integerOptionIn, ParlInputError, requireObject, resolveOptions, switchOption, type OptionsOf } from '@parl/core';
import { SPAN_FORMAT_TITLES, type SpanFormatName } from './formats/format-names.js';
import { DEFAULT_REPORT_DRAWN, MAX_REPORT_DRAWN } from './report/report-limits.js';

export { SPAN_FORMAT_TITLES, type SpanFormatName } from './formats/format-names.js';

/** Input formats; `auto` detects the format of each JSON value on its own. */
export const TRACE_FORMATS: readonly TraceFormat[] = ['auto', ...(Object.keys(SPAN_FORMAT_TITLES) as SpanFormatName[]), 'parl'];
/** A format name accepted by {@link TraceOptions.format}: `auto`, a span format of the registry, or `parl` (spec §5 records). */
export type TraceFormat = 'auto' | SpanFormatName | 'parl';
/** A concrete format, as detected or forced (every {@link TraceFormat} but `auto`). */
export type ConcreteTraceFormat = Exclude<TraceFormat, 'auto'>;

/** How the sub-agents of the orchestrator are put into stage groups. */
export const TRACE_GROUPINGS = ['children', 'overlap'] as const;
/** A grouping accepted by {@link TraceOptions.grouping}. */
export type TraceGrouping = (typeof TRACE_GROUPINGS)[number];

/** Which spans of a sub-agent count as its steps. */
export const TRACE_STEP_SOURCES = ['llm', 'tools'] as const;
/** A step source accepted by {@link TraceOptions.stepsFrom}. */
export type TraceStepSource = (typeof TRACE_STEP_SOURCES)[number];

/** Whether steps are counts of spans or their durations. */
export const TRACE_CLOCKS = ['count', 'wall'] as const;
/** A clock accepted by {@link TraceOptions.clock}. */
export type TraceClock = (typeof TRACE_CLOCKS)[number];

/** What to do with a malformed trace, span or line. */
export const TRACE_MALFORMED_POLICIES = ['error', 'skip'] as const;
/** A policy accepted by {@link TraceOptions.onMalformed}. */
export type TraceMalformedPolicy = (typeof TRACE_MALFORMED_POLICIES)[number];

/** When a trace is complete enough to be turned into a record. */
export const TRACE_ORDERINGS = ['streamed', 'unordered'] as const;
/** An ordering accepted by {@link TraceOptions.ordering}. */
export type TraceOrdering = (typeof TRACE_ORDERINGS)[number];

/**
 * Options of {@link readTraces} and {@link traceToResult}: the trace-reading options of
 * {@link TRACE_OPTIONS} (every field optional, each row's help says what it does; `format` `auto`
 * recognises each JSON value by the format registry's `detect`, and JSON no format recognises is
 * a warning, an error under `strict`, never a record) and a warning callback.
 */
export interface TraceOptions extends TraceReadingOptions {
  /**
   * Receives warnings that belong to no emitted trace (a skipped line, a skipped trace). When
   * absent they go to `process.emitWarning` so that they are never silent. Warnings about an
   * emitted trace are in its {@link TraceResult.warnings}.
   */
  readonly onWarning?: (message: string) => void;
}

/** {@link TraceOptions} with every default filled in. */
export type ResolvedTraceOptions = Required<TraceReadingOptions> & {
  /** See {@link TraceOptions.onWarning}. */
  readonly onWarning: (message: string) => void;
};

/** The defaults of {@link TraceOptions}. */
export const DEFAULT_TRACE_OPTIONS = {
  format: 'auto',
  grouping: 'overlap',
  stepsFrom: 'llm',
  clock: 'count',
  onMalformed: 'error',
  ordering: 'streamed',
  strict: false,
} as const;

function emitProcessWarning(message: string): void {
  process.emitWarning(message, { type: 'ParlTraceWarning' });
}

/**
 * Check options and fill in defaults.
 *
 * @throws `ParlInputError` (from `@parl/core`) naming the option, the value and the allowed values
 *
 * @example
 * ```ts
 * resolveTraceOptions({ grouping: 'children' }).clock; // 'count'
 * ```
 */
export function resolveTraceOptions(options: TraceOptions = {}): ResolvedTraceOptions {
  const o = requireObject(options, 'options');
  const onWarning = o['onWarning'];
  if (onWarning !== undefined && typeof onWarning !== 'function') {
    throw new ParlInputError('options.onWarning', onWarning, 'a function (message: string) => void');
  }
  const strict = o['strict'];
  if (strict !== undefined && typeof strict !== 'boolean') throw new ParlInputError('options.strict', strict, 'true or false');
  // Only the table's keys: callers pass wider objects (the live options) through here.
  const reading = Object.fromEntries(Object.keys(TRACE_OPTIONS).map((key) => [key, o[key]]));
  return { ...resolveOptions(TRACE_OPTIONS, reading, 'library'), onWarning: (onWarning as ((message: string) => void) | undefined) ?? emitProcessWarning };
}

/**
 * The trace-reading options, declared once: `parl trace` builds its flags from this table (and
 * `parl serve` its `--grouping`, `--steps-from` and `--clock`), the docs their option tables.
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * const options = resolveOptions(TRACE_OPTIONS, { grouping: 'children', strict: 'true' }, 'flag');
 * resolveTraceOptions(options).grouping; // "children"
 * ```
 */
export const TRACE_OPTIONS = defineOptionTable({
  format: {
    flag: 'trace-format',
    arg: 'format',
    choices: TRACE_FORMATS,
    parse: choiceOption(TRACE_FORMATS),
    default: DEFAULT_TRACE_OPTIONS.format,
    help: 'input format (auto: detected per JSON value)',
  },
  grouping: {
    flag: 'grouping',
    arg: 'mode',
    choices: TRACE_GROUPINGS,
    parse: choiceOption(TRACE_GROUPINGS),
    default: DEFAULT_TRACE_OPTIONS.grouping,
    help: "a turn's sub-agents as run, those that waited for others of their turn carrying wait_steps (overlap), or as if launched together (children)",
  },
  stepsFrom: {
    flag: 'steps-from',
    arg: 'spans',
    choices: TRACE_STEP_SOURCES,
    parse: choiceOption(TRACE_STEP_SOURCES),
    default: DEFAULT_TRACE_OPTIONS.stepsFrom,
    help: "a sub-agent's steps: its LLM calls or its tool calls",
  },
  clock: {
    flag: 'clock',
    arg: 'clock',
    choices: TRACE_CLOCKS,
    parse: choiceOption(TRACE_CLOCKS),
    default: DEFAULT_TRACE_OPTIONS.clock,
    help: 'a step is one span, or its duration in seconds',
  },
  ordering: {
    flag: 'ordering',
    arg: 'mode',
    choices: TRACE_ORDERINGS,
    parse: choiceOption(TRACE_ORDERINGS),
    default: DEFAULT_TRACE_OPTIONS.ordering,
    help: "streamed: a trace is done once its root span arrived and another trace's span follows; unordered: hold every trace to the end",
  },
  onMalformed: {
    flag: 'on-malformed',
    arg: 'mode',
    choices: TRACE_MALFORMED_POLICIES,
    parse: choiceOption(TRACE_MALFORMED_POLICIES),
    default: DEFAULT_TRACE_OPTIONS.onMalformed,
    help: 'on a malformed trace, span or line: stop with exit code 2, or skip it with a warning on stderr',
  },
  strict: {
    flag: 'strict',
    parse: switchOption,
    default: DEFAULT_TRACE_OPTIONS.strict,
    help: 'every warning (a sub-agent without a model call, unrecognised JSON, an unknown span kind) is an error (exit code 2)',
  },
});

/** The trace-reading options a command line, a server setting or a library call gives (derived from {@link TRACE_OPTIONS}): every {@link TraceOptions} field but the `onWarning` callback. */
export type TraceReadingOptions = OptionsOf<typeof TRACE_OPTIONS>;

/**
 * The options of the trace report (`TraceReportBuilder`): `parl trace --report-drawn`.
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * resolveOptions(TRACE_REPORT_OPTIONS, { 'report-drawn': '5' }, 'flag').drawn; // 5
 * ```
 */
export const TRACE_REPORT_OPTIONS = defineOptionTable({
  drawn: {
    flag: 'report-drawn',
    arg: 'n',
    parse: integerOptionIn(0, MAX_REPORT_DRAWN),
    defaultText: `${DEFAULT_REPORT_DRAWN}, at most ${MAX_REPORT_DRAWN}`,
    help: 'traces drawn in --report, largest possible saving first; the rest are listed',
  },
});
