/**
 * The options of trace ingestion and their defaults.
 *
 * @module
 */
import { choiceOption, defineOptionTable, ParlInputError, requireObject, requireOneOf, switchOption, type OptionTable } from '@parl/core';

/** Input formats; `auto` detects the format of each JSON value on its own. */
export const TRACE_FORMATS = ['auto', 'otlp', 'openai-agents', 'langsmith', 'mastra', 'parl'] as const;
/** A format name accepted by {@link TraceOptions.format}. */
export type TraceFormat = (typeof TRACE_FORMATS)[number];
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
 * Options of {@link readTraces} and {@link traceToResult}. Every field is optional; the defaults
 * are in {@link DEFAULT_TRACE_OPTIONS}.
 */
export interface TraceOptions {
  /**
   * Input format. `auto` (default) recognises each JSON value: an OTLP export request or span
   * (`resourceSpans`, `spanId`, `traceId`, `startTimeUnixNano`…), an OpenAI Agents SDK item
   * (`object: "trace.span"`, `span_data`), a LangSmith run (`run_type`), a Mastra exported span
   * (`traceId`, `id`, `type`, `startTime`), or a spec §5 record (an object with at least one
   * spec §5 field). Anything else is a warning (an error under `strict`), never a record.
   */
  readonly format?: TraceFormat;
  /**
   * `overlap` (default, "as run", spec §7): one stage per orchestrator turn, and a sub-agent that
   * started after some of its turn's sub-agents had ended carries `wait_steps` (spec §2: the
   * heaviest chain of those, by `@parl/core`'s `asRunWaitSteps`), so the record's critical steps
   * are what happened — waves and pools included.
   * `children` ("launched together"): the sub-agents launched in one orchestrator turn form that
   * stage's group, whether they ran at the same time or not.
   */
  readonly grouping?: TraceGrouping;
  /** A sub-agent's steps are its LLM calls (`llm`, default) or its tool calls (`tools`). */
  readonly stepsFrom?: TraceStepSource;
  /**
   * `count` (default): a step is one span. `wall`: a step is weighted by its duration in
   * seconds (main steps: the orchestrator LLM call's duration; sub-agent steps: the summed
   * durations of the spans `stepsFrom` picks).
   */
  readonly clock?: TraceClock;
  /**
   * `error` (default): a malformed trace, span or line throws a {@link TraceInputError} naming it.
   * `skip`: it is skipped and a warning says what and why (see {@link TraceOptions.onWarning}).
   */
  readonly onMalformed?: TraceMalformedPolicy;
  /**
   * `streamed` (default): a trace is complete once its root span has arrived and a span of another
   * trace follows (or the input ends); memory holds only the traces still open. `unordered`: every
   * trace is held until the input ends (any order works, memory grows with the input).
   */
  readonly ordering?: TraceOrdering;
  /**
   * Receives warnings that belong to no emitted trace (a skipped line, a skipped trace). When
   * absent they go to `process.emitWarning` so that they are never silent. Warnings about an
   * emitted trace are in its {@link TraceResult.warnings}.
   */
  readonly onWarning?: (message: string) => void;
  /**
   * `false` (default): warnings (a sub-agent without a model call, JSON that no format recognises,
   * unknown span kinds) are reported and the record is still written. `true`: every warning is a
   * {@link TraceInputError} naming the trace or line.
   */
  readonly strict?: boolean;
}

/** {@link TraceOptions} with every default filled in. */
export interface ResolvedTraceOptions {
  /** See {@link TraceOptions.format}. */
  readonly format: TraceFormat;
  /** See {@link TraceOptions.grouping}. */
  readonly grouping: TraceGrouping;
  /** See {@link TraceOptions.stepsFrom}. */
  readonly stepsFrom: TraceStepSource;
  /** See {@link TraceOptions.clock}. */
  readonly clock: TraceClock;
  /** See {@link TraceOptions.onMalformed}. */
  readonly onMalformed: TraceMalformedPolicy;
  /** See {@link TraceOptions.ordering}. */
  readonly ordering: TraceOrdering;
  /** See {@link TraceOptions.onWarning}. */
  readonly onWarning: (message: string) => void;
  /** See {@link TraceOptions.strict}. */
  readonly strict: boolean;
}

/** The defaults of {@link TraceOptions}. */
export const DEFAULT_TRACE_OPTIONS = {
  format: 'auto',
  grouping: 'overlap',
  stepsFrom: 'llm',
  clock: 'count',
  onMalformed: 'error',
  ordering: 'streamed',
  strict: false,
} as const satisfies Omit<ResolvedTraceOptions, 'onWarning'>;

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
  const pick = <T extends string>(key: string, allowed: readonly T[], fallback: T): T =>
    o[key] === undefined ? fallback : requireOneOf(o[key], `options.${key}`, allowed);
  const onWarning = o['onWarning'];
  if (onWarning !== undefined && typeof onWarning !== 'function') {
    throw new ParlInputError('options.onWarning', onWarning, 'a function (message: string) => void');
  }
  const strict = o['strict'];
  if (strict !== undefined && typeof strict !== 'boolean') throw new ParlInputError('options.strict', strict, 'true or false');
  return {
    format: pick('format', TRACE_FORMATS, DEFAULT_TRACE_OPTIONS.format),
    grouping: pick('grouping', TRACE_GROUPINGS, DEFAULT_TRACE_OPTIONS.grouping),
    stepsFrom: pick('stepsFrom', TRACE_STEP_SOURCES, DEFAULT_TRACE_OPTIONS.stepsFrom),
    clock: pick('clock', TRACE_CLOCKS, DEFAULT_TRACE_OPTIONS.clock),
    onMalformed: pick('onMalformed', TRACE_MALFORMED_POLICIES, DEFAULT_TRACE_OPTIONS.onMalformed),
    ordering: pick('ordering', TRACE_ORDERINGS, DEFAULT_TRACE_OPTIONS.ordering),
    onWarning: (onWarning as ((message: string) => void) | undefined) ?? emitProcessWarning,
    strict: strict ?? DEFAULT_TRACE_OPTIONS.strict,
  };
}

/** The trace-reading options a command line or a server setting gives: every {@link TraceOptions} field but the `onWarning` callback. */
export type TraceReadingOptions = Omit<TraceOptions, 'onWarning'>;

/**
 * The trace-reading options, declared once: `parl trace` builds its flags from this table (and
 * `parl serve` its `--grouping`, `--steps-from` and `--clock`), the docs their option tables.
 *
 * @example
 * ```ts
 * const options = resolveOptions(TRACE_OPTIONS, { grouping: 'children', strict: 'true' }, 'flag');
 * resolveTraceOptions(options).grouping; // 'children'
 * ```
 */
export const TRACE_OPTIONS: OptionTable<TraceReadingOptions> = defineOptionTable<TraceReadingOptions>({
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
