/**
 * `parl trace`: agent traces in (OpenTelemetry OTLP JSON, OpenAI Agents SDK exports, LangSmith
 * runs, Mastra spans, spec §5 records), spec §5 episode records (as run) out, plus one
 * serial-collapse finding per trace.
 * Every trace is read and mapped by `@parl/traces`' `readTraces`; this command only wires files,
 * flags and messages around it.
 *
 * @module
 */
import type { OptionsOf } from '@parl/core';
import { readTraces, TraceReportBuilder, type ConcreteTraceFormat, type TraceReadingOptions } from '@parl/traces';
import type { TRACE_FILE_FLAGS } from '../record-flags.js';
import { CliError } from '../../errors.js';
import { logLine, type CliIo } from '../../terminal/cli-io.js';
import { readOutcomes, type OutcomeTable } from '../trace-outcomes.js';
import { openInput } from '@parl/io';
import { createRecordWriter, type OutputFormat, type RecordWriter } from '@parl/io';
import { openFileSink, openTextSink, type TextSink } from '@parl/io';
import { formatNumber } from '../report/format-number.js';

/**
 * Options of {@link traceCommand}: the files (`--in`, `--out`, `--findings`, `--outcomes`,
 * `--report`: the cli's `TRACE_FILE_FLAGS`), the report's `--report-drawn`, the trace-reading
 * options as `@parl/traces`' `TRACE_OPTIONS` resolves them, and the records' output format.
 */
export interface TraceCommandOptions extends OptionsOf<typeof TRACE_FILE_FLAGS> {
  /** `--report-drawn N`: traces drawn in the report (`@parl/traces`' `TRACE_REPORT_OPTIONS`). */
  readonly reportDrawn?: number;
  /** The trace-reading options (`@parl/traces`' `TRACE_OPTIONS`: `--trace-format`, `--grouping`, …). */
  readonly reading?: TraceReadingOptions;
  /** `--format`: output format of the records (default `jsonl`). */
  readonly format?: OutputFormat;
  /** `--columns` for CSV. */
  readonly columns?: readonly string[];
}

/** What {@link traceCommand} did, as printed by `--json`. */
export interface TraceRunSummary {
  /** Always `trace`. */
  readonly command: 'trace';
  /** Traces (and native records) turned into records. */
  readonly traces_read: number;
  /** Records written. */
  readonly records_written: number;
  /** Malformed lines, traces or spans skipped under `--on-malformed skip` (each reported on stderr). */
  readonly skipped: number;
  /** Warnings about traces that were read (unknown attributes, no agent span, …), each on stderr. */
  readonly warnings: number;
  /** Traces whose finding reports serial collapse. */
  readonly serial_collapse_traces: number;
  /** Critical steps that running each serial pattern's work in parallel would save at most, over all traces. */
  readonly critical_steps_saved: number;
  /** Traces read per input format. */
  readonly trace_formats: Readonly<Partial<Record<ConcreteTraceFormat, number>>>;
  /** Records with no outcome in `--outcomes` (0 without it). */
  readonly records_without_outcome: number;
  /** Output format of the records. */
  readonly output_format: OutputFormat;
  /** Records output: a path or `stdout`. */
  readonly output: string;
  /** The findings file, or null without `--findings`. */
  readonly findings: string | null;
  /** The report file, or null without `--report`. */
  readonly report: string | null;
}

/** The report builder for `--report`, checked before any input is read; undefined without it. */
function reportBuilder(options: TraceCommandOptions): TraceReportBuilder | undefined {
  if (options.report === undefined) {
    if (options.reportDrawn !== undefined) throw new CliError('--report-drawn needs --report FILE');
    return undefined;
  }
  const drawn = options.reportDrawn;
  const clock = options.reading?.clock;
  return new TraceReportBuilder({ ...(drawn === undefined ? {} : { drawn }), ...(clock === undefined ? {} : { clock }) });
}

function checkDistinctPaths(options: TraceCommandOptions): void {
  const named = (['in', 'out', 'findings', 'outcomes', 'report'] as const).filter((k) => options[k] !== undefined);
  for (const [i, a] of named.entries()) {
    for (const b of named.slice(i + 1)) {
      const readOnly = a === 'in' && b === 'outcomes';
      const inPlace = a === 'in' && b === 'out';
      if (!readOnly && !inPlace && options[a] === options[b]) throw new CliError(`--${a} and --${b} name the same file ${options[a] ?? ''}: give each its own`);
    }
  }
}

/**
 * Read traces, write their spec §5 records and (with `findings`) their serial-collapse findings;
 * print warnings and skipped inputs on stderr. Output files appear only when the whole run
 * succeeds.
 *
 * @throws `TraceInputError` (a `ParlInputError` from `@parl/core`, naming the line, trace and span)
 *   for a malformed trace under `onMalformed: 'error'`; {@link CliError} for a file that cannot be
 *   read or written
 *
 * @example
 * ```ts
 * await traceCommand({ in: 'otel-export.jsonl', out: 'episodes.jsonl', findings: 'findings.jsonl' }, processIo());
 * ```
 */
export async function traceCommand(options: TraceCommandOptions, io: CliIo): Promise<TraceRunSummary> {
  checkDistinctPaths(options);
  const outcomes: OutcomeTable | undefined = options.outcomes === undefined ? undefined : await readOutcomes(options.outcomes, io.stdin);
  const input = await openInput(options.in, io.stdin);
  if (options.in === undefined && (io.stdin as { isTTY?: boolean }).isTTY === true) {
    logLine(io, 'parl trace: reading traces from the terminal (end with Ctrl-D; --in FILE reads a file)');
  }
  const report = reportBuilder(options);
  const format = options.format ?? 'jsonl';
  let findingsSink: TextSink | undefined;
  let reportSink: TextSink | undefined;
  let writer: RecordWriter | undefined;
  let skipped = 0;
  let warnings = 0;
  let read = 0;
  let collapsed = 0;
  let saved = 0;
  let withoutOutcome = 0;
  const formats: Partial<Record<ConcreteTraceFormat, number>> = {};
  try {
    findingsSink = options.findings === undefined ? undefined : await openFileSink(options.findings, '--findings');
    reportSink = options.report === undefined ? undefined : await openFileSink(options.report, '--report');
    writer = createRecordWriter(format, await openTextSink(options.out, io.stdout), {
      ...(options.columns === undefined ? {} : { columns: options.columns }),
      warn: (message) => logLine(io, `parl trace: note: ${message}`),
    });
    const onSkip = (message: string): void => {
      skipped++;
      logLine(io, `parl trace: ${message}`);
    };
    for await (const result of readTraces(input, { ...options.reading, onWarning: onSkip })) {
      read++;
      formats[result.format] = (formats[result.format] ?? 0) + 1;
      for (const w of result.warnings) {
        warnings++;
        logLine(io, `parl trace: warning: ${w.startsWith(`trace ${result.traceId}`) ? w : `trace ${result.traceId}: ${w}`}`);
      }
      let record: Readonly<Record<string, unknown>> = result.record;
      if (outcomes !== undefined) {
        const outcome = outcomes.byId.get(result.traceId);
        if (outcome === undefined) withoutOutcome++;
        else record = { ...record, ...outcome };
      }
      await writer.write(record, `trace ${result.traceId}`);
      if (result.finding.serial_collapse) collapsed++;
      saved += result.finding.critical_steps_saved;
      await findingsSink?.write(`${JSON.stringify(result.finding)}\n`);
      report?.add({ record: result.record, finding: result.finding });
    }
    if (report !== undefined) await reportSink?.write(report.html());
    await writer.finish();
    await findingsSink?.finish();
    await reportSink?.finish();
  } catch (err) {
    await writer?.abort();
    await findingsSink?.abort();
    await reportSink?.abort();
    throw err;
  }
  if (withoutOutcome > 0 && outcomes !== undefined) {
    logLine(io, `parl trace: warning: ${withoutOutcome} of ${read} records have no outcome in --outcomes ${outcomes.path} (parl reward needs success, quality or r_perf)`);
  }
  return {
    command: 'trace',
    traces_read: read,
    records_written: writer.count,
    skipped,
    warnings,
    serial_collapse_traces: collapsed,
    critical_steps_saved: saved,
    trace_formats: formats,
    records_without_outcome: withoutOutcome,
    output_format: format,
    output: options.out ?? 'stdout',
    findings: options.findings ?? null,
    report: options.report ?? null,
  };
}

/**
 * The one-line human summary of a `parl trace` run, e.g.
 * `parl trace: 3 traces read, 3 records written to stdout; 1 with serial collapse, running in parallel would save up to 2 critical steps`.
 */
export function traceSummaryLine(s: TraceRunSummary): string {
  const plural = (n: number, word: string): string => `${formatNumber(n)} ${word}${n === 1 ? '' : 's'}`;
  const parts = [
    `parl trace: ${plural(s.traces_read, 'trace')} read, ${plural(s.records_written, 'record')} written to ${s.output}`,
    `${s.serial_collapse_traces} with serial collapse, running in parallel would save up to ${plural(s.critical_steps_saved, 'critical step')}`,
  ];
  const extra = [
    ...(s.skipped > 0 ? [`${s.skipped} skipped`] : []),
    ...(s.warnings > 0 ? [plural(s.warnings, 'warning')] : []),
    ...(s.findings === null ? [] : [`findings in ${s.findings}`]),
    ...(s.report === null ? [] : [`report in ${s.report}`]),
  ];
  return `${parts.join('; ')}${extra.length > 0 ? `; ${extra.join(', ')}` : ''}`;
}
