/**
 * The `parl` commands' own flags, declared once as option tables (`@parl/core`'s
 * `defineOptionTable`): where records come from and go (`parl reward`, `parl critical-steps`),
 * where `parl simulate` writes, and the files of `parl trace`. The option types are derived from
 * these tables and handed to the commands as they resolve.
 *
 * @module
 */
import { choiceOption, defineOptionTable, nameListOption, nonEmptyTextOption, positiveIntegerOption, switchOption } from '@parl/core';
import { ON_ERROR_CHOICES, OUTPUT_FORMATS } from '@parl/io';

/** `--columns LIST`: the CSV columns. */
const columns = {
  flag: 'columns',
  arg: 'list',
  parse: nameListOption,
  defaultText: "the first record's fields",
  help: 'CSV columns, comma separated',
} as const;

/** `--json`: the summary as JSON. */
const json = { flag: 'json', parse: switchOption, help: 'print a machine-readable JSON summary (stdout with --out, else stderr)' } as const;

/** `--format FORMAT`: the records' output format. */
const format = { flag: 'format', arg: 'format', choices: OUTPUT_FORMATS, parse: choiceOption(OUTPUT_FORMATS), help: 'output format' } as const;

/**
 * The record files of `parl reward` and `parl critical-steps`: input, output, format, columns, what
 * a bad record does, threads, and the JSON summary.
 */
export const RECORD_IO_FLAGS = defineOptionTable({
  in: {
    flag: 'in',
    arg: 'file',
    parse: nonEmptyTextOption,
    help: 'read records from FILE (JSON or JSONL, detected; Parquet or Arrow IPC by the name: .parquet, .arrow, .arrows) instead of stdin',
  },
  out: {
    flag: 'out',
    arg: 'file',
    parse: nonEmptyTextOption,
    help: 'write records to FILE (atomically) instead of stdout; .parquet, .arrow or .arrows from a Parquet or Arrow --in',
  },
  format: { ...format, defaultText: 'the input format' },
  columns,
  onError: {
    flag: 'on-error',
    arg: 'mode',
    choices: ON_ERROR_CHOICES,
    parse: choiceOption(ON_ERROR_CHOICES),
    default: 'fail',
    help: 'on a bad record: stop with exit code 2, or skip it and report it on stderr',
  },
  threads: {
    flag: 'threads',
    arg: 'n',
    parse: positiveIntegerOption,
    defaultText: '1, the main thread',
    help: 'worker threads labelling JSONL input, output in input order',
  },
  json,
});

/** Where `parl simulate` writes its records. */
export const SIMULATE_OUTPUT_FLAGS = defineOptionTable({
  out: { flag: 'out', arg: 'file', parse: nonEmptyTextOption, help: 'write records to FILE (atomically) instead of stdout' },
  format: { ...format, defaultText: 'jsonl' },
  columns,
  json,
});

/** The files `parl trace` reads and writes (before the trace-reading flags of `@parl/traces`). */
export const TRACE_FILE_FLAGS = defineOptionTable({
  in: { flag: 'in', arg: 'file', parse: nonEmptyTextOption, help: 'read traces from FILE (JSONL or one JSON document, streamed) instead of stdin' },
  out: { flag: 'out', arg: 'file', parse: nonEmptyTextOption, help: 'write records to FILE (atomically) instead of stdout' },
  findings: { flag: 'findings', arg: 'file', parse: nonEmptyTextOption, help: 'write one serial-collapse finding per trace to FILE (JSONL, atomically)' },
  outcomes: {
    flag: 'outcomes',
    arg: 'file',
    parse: nonEmptyTextOption,
    help: 'JSON or JSONL objects {id, success, quality, r_perf, …} added to the record of that id',
  },
  report: {
    flag: 'report',
    arg: 'file',
    parse: nonEmptyTextOption,
    help: 'write the trace report to FILE (one self-contained HTML page, atomically): a summary, the traces with the largest possible saving drawn as timelines, the rest listed',
  },
});

/** The output of `parl trace`'s records (after the trace-reading flags). */
export const TRACE_OUTPUT_FLAGS = defineOptionTable({
  format: { ...format, help: 'output format of the records', defaultText: 'jsonl' },
  columns,
  json,
});
