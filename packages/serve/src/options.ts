/**
 * The options of `parl serve` and {@link createParlServer}, declared once: one row per option —
 * its flag, parser, default and help. The flags, the docs' option tables, the options' types
 * (`ServeOptions`, derived from this table) and their checks are all built from it. Times are in
 * milliseconds, sizes in bytes.
 *
 * @module
 */
import {
  choiceOption,
  defineOptionTable,
  integerOptionIn,
  nonEmptyTextOption,
  nonNegativeDecimalOption,
  positiveDecimalOption,
  positiveIntegerOption,
  switchOption,
  textOption,
  type OptionRow,
} from '@parl/core';
import { TRACE_OPTIONS } from '@parl/traces';
import { FSYNC_POLICIES } from './episodes/fsync-policy.js';
import { defaultLabelThreads } from './label-threads.js';

/** The episode log `parl serve` keeps when neither `--log` nor `--no-log` is given (a library call keeps none). */
export const DEFAULT_SERVE_LOG = 'parl-episodes.jsonl';

/** The table's rows, checked by core's `defineOptionTable` (one flag per row), their own types kept. */
function serveTable<T extends Readonly<Record<string, OptionRow<unknown>>>>(rows: T): T {
  defineOptionTable(rows as never);
  return rows;
}

/**
 * The options of `parl serve` and {@link createParlServer}, one row each, keyed by the option's
 * name in `ServeOptions`. The trace-mapping rows are those of `parl trace` (`TRACE_OPTIONS` of
 * `@parl/traces`).
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * resolveOptions(SERVE_OPTIONS, { port: '99999' }, 'flag');
 * // ParlInputError: --port must be a decimal integer from 0 to 65535, got "99999"
 * ```
 */
export const SERVE_OPTIONS = serveTable({
  host: { flag: 'host', arg: 'address', parse: nonEmptyTextOption, default: '127.0.0.1', help: 'address to listen on; anything but loopback needs a token' },
  port: { flag: 'port', arg: 'n', parse: integerOptionIn(0, 65535), default: 4318, help: 'port to listen on (the default is the OTLP/HTTP port); 0 picks a free one' },
  token: { flag: 'token', arg: 'token', parse: textOption, defaultText: '$PARL_SERVE_TOKEN', help: 'bearer token every request but /healthz and /readyz must carry' },
  logFile: {
    flag: 'log',
    arg: 'file',
    parse: nonEmptyTextOption,
    defaultText: `${DEFAULT_SERVE_LOG} (a library call: none)`,
    help: 'append-only episode log, replayed at start',
  },
  noLog: { flag: 'no-log', parse: switchOption, help: 'keep no episode log: nothing survives a restart' },
  fsync: {
    flag: 'fsync',
    arg: 'policy',
    choices: FSYNC_POLICIES,
    parse: choiceOption(FSYNC_POLICIES),
    default: 'always' as (typeof FSYNC_POLICIES)[number],
    help: 'always: fdatasync before each answer; interval: every --fsync-interval ms; never',
  },
  fsyncIntervalMs: { flag: 'fsync-interval', arg: 'ms', parse: positiveDecimalOption, default: 100, help: 'with --fsync interval, how often the log is flushed to disk' },
  quietPeriodMs: { flag: 'quiet-period', arg: 'ms', parse: nonNegativeDecimalOption, default: 2000, help: 'a trace becomes an episode this long after its root span ended and no span came' },
  traceTimeoutMs: { flag: 'trace-timeout', arg: 'ms', parse: positiveDecimalOption, default: 10 * 60 * 1000, help: 'an unfinished trace is evicted this long after its first span' },
  maxOpenTraces: { flag: 'max-open-traces', arg: 'n', parse: positiveIntegerOption, default: 10_000, help: 'unfinished traces held at most; the oldest is evicted beyond' },
  maxSpansPerTrace: {
    flag: 'max-spans-per-trace',
    arg: 'n',
    parse: positiveIntegerOption,
    default: 50_000,
    help: 'spans held for one unfinished trace; beyond, the trace is evicted and its later spans discarded (parl_traces_evicted_total{reason="trace-spans"})',
  },
  maxOpenSpans: {
    flag: 'max-open-spans',
    arg: 'n',
    parse: positiveIntegerOption,
    default: 100_000,
    help: 'spans held over all unfinished traces (about 1 KiB each); beyond, the oldest traces are evicted (parl_traces_evicted_total{reason="open-spans"})',
  },
  maxStreamBufferBytes: {
    flag: 'max-stream-buffer',
    arg: 'bytes',
    parse: positiveIntegerOption,
    default: 1024 * 1024,
    help: 'bytes waiting for one dashboard event stream; a client reading slower is disconnected (parl_event_streams_dropped_total{reason="stream"})',
  },
  maxStreamBufferTotalBytes: {
    flag: 'max-stream-buffer-total',
    arg: 'bytes',
    parse: positiveIntegerOption,
    default: 8 * 1024 * 1024,
    help: 'bytes waiting over all dashboard event streams; beyond, the streams furthest behind are disconnected (parl_event_streams_dropped_total{reason="total"})',
  },
  eventIntervalMs: { flag: 'event-interval', arg: 'ms', parse: positiveDecimalOption, default: 500, help: 'least time between two dashboard snapshots sent to one event stream' },
  maxEpisodes: { flag: 'max-episodes', arg: 'n', parse: positiveIntegerOption, default: 100_000, help: 'episodes held in memory for lookup (the log keeps all)' },
  rolloutAttribute: { flag: 'rollout-attribute', arg: 'name', parse: nonEmptyTextOption, default: 'parl.rollout_id', help: "span or resource attribute naming a trace's rollout" },
  bodyLimit: { flag: 'body-limit', arg: 'bytes', parse: positiveIntegerOption, default: 16 * 1024 * 1024, help: 'largest request body, as sent and after gunzip' },
  requestTimeoutMs: { flag: 'request-timeout', arg: 'ms', parse: positiveDecimalOption, default: 30_000, help: 'a request not received whole in this time is answered 408' },
  headersTimeoutMs: {
    flag: 'headers-timeout',
    arg: 'ms',
    parse: positiveDecimalOption,
    defaultText: '10000, or the request timeout when shorter',
    help: 'request headers not received in this time are answered 408; at most the request timeout',
  },
  labelThreads: {
    flag: 'label-threads',
    arg: 'n',
    parse: integerOptionIn(0, 64),
    default: defaultLabelThreads(),
    defaultText: 'cores - 1, 1 to 4',
    help: 'worker threads labelling /v1/rewards bodies and reading large /get_reward and /v1/traces bodies and traces; 0: all on the event loop, which a large request then blocks',
  },
  maxQueuedBodies: { flag: 'max-queued-bodies', arg: 'n', parse: positiveIntegerOption, default: 256, help: 'bodies waiting for a labelling thread at most; beyond, 503 with Retry-After (parl_bodies_shed_total{reason="bodies"})' },
  maxQueuedBodyBytes: {
    flag: 'max-queued-body-bytes',
    arg: 'bytes',
    parse: positiveIntegerOption,
    default: 64 * 1024 * 1024,
    help: 'bytes of bodies being labelled or waiting for it at most (a large /v1/rewards body counts until its answer is sent); beyond, 503 with Retry-After (parl_bodies_shed_total{reason="bytes"})',
  },
  grouping: TRACE_OPTIONS.grouping,
  stepsFrom: TRACE_OPTIONS.stepsFrom,
  clock: TRACE_OPTIONS.clock,
});
