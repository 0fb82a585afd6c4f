/**
 * `parl schedule SPEC`: a schedule's values over training steps, as a table (with an ASCII
 * chart), CSV or JSON, and optionally as a self-contained HTML chart.
 *
 * @module
 */
import type { CliIo } from '../../terminal/cli-io.js';
import { openTextSink, writeFileAtomic } from '@parl/io';
import { renderAsciiChart, renderCsv, renderJson, renderScheduleHtml, renderTable } from './schedule-render.js';
import { sampleSchedule, type ScheduleSamples } from './schedule-samples.js';

/** Options of {@link scheduleCommand}, one per flag. */
export interface ScheduleCommandOptions {
  /** The schedule, short form (`linear:0.1:0:10000`) or JSON. */
  readonly spec: string;
  /** `--from`: first step (default 0). */
  readonly from?: number;
  /** `--to`: last step (default: where the schedule reaches its final value). */
  readonly to?: number;
  /** `--points`: rows in the table (default 11). */
  readonly points?: number;
  /** `--csv`: print `step,value` CSV instead of the table. */
  readonly csv?: boolean;
  /** `--json`: print JSON instead of the table. */
  readonly json?: boolean;
  /** `--no-chart` sets this false: no ASCII chart under the table. */
  readonly chart?: boolean;
  /** `--html FILE`: also write an HTML chart (atomically). */
  readonly html?: string;
  /** `--out FILE`: write the table/CSV/JSON to a file (atomically) instead of stdout. */
  readonly out?: string;
}

/** Columns of the ASCII chart and samples of the HTML chart. */
const DENSE_POINTS = { ascii: 64, html: 201 } as const;

/**
 * Print the schedule's values; returns the sampled rows.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad schedule or range
 *
 * @example
 * ```ts
 * await scheduleCommand({ spec: 'cosine:0.1:0:10000', points: 5, csv: true }, processIo());
 * ```
 */
export async function scheduleCommand(options: ScheduleCommandOptions, io: CliIo): Promise<ScheduleSamples> {
  const range = {
    ...(options.from === undefined ? {} : { from: options.from }),
    ...(options.to === undefined ? {} : { to: options.to }),
  };
  const table = sampleSchedule(options.spec, { ...range, ...(options.points === undefined ? {} : { points: options.points }) });
  let text: string;
  if (options.json === true) text = renderJson(table);
  else if (options.csv === true) text = renderCsv(table);
  else {
    text = renderTable(table);
    if (options.chart !== false) text += `\n${renderAsciiChart(sampleSchedule(options.spec, { ...range, points: DENSE_POINTS.ascii }))}`;
  }
  if (options.html !== undefined) {
    await writeFileAtomic(options.html, renderScheduleHtml(sampleSchedule(options.spec, { ...range, points: DENSE_POINTS.html })), '--html');
  }
  const sink = await openTextSink(options.out, io.stdout);
  await sink.write(text);
  await sink.finish();
  return table;
}
