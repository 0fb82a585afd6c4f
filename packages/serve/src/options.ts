/**
 * The options of {@link createParlServer}, their defaults, and the checks run before a server
 * starts (a non-loopback address needs a token).
 *
 * @module
 */
import {
  choiceOption,
  defineOptionTable,
  integerOptionIn,
  nonEmptyTextOption,
  nonNegativeDecimalOption,
  ParlInputError,
  positiveDecimalOption,
  positiveIntegerOption,
  switchOption,
  textOption,
  type OptionTable,
} from '@parl/core';
import { TRACE_OPTIONS, type TraceClock, type TraceGrouping, type TraceOptions, type TraceStepSource } from '@parl/traces';
import { availableParallelism } from 'node:os';
import type { FsyncPolicy } from './episodes/episode-log.js';

/** How a server is set up. Every field is optional; see {@link DEFAULT_SERVE_OPTIONS}. */
export interface ServeOptions {
  /** Address to listen on (default `127.0.0.1`). Anything but loopback needs {@link ServeOptions.token}. */
  readonly host?: string;
  /** Port (default 4318, the OTLP/HTTP port; 0 picks a free one). */
  readonly port?: number;
  /** Bearer token every request but `/healthz` and `/readyz` must carry; none: no auth (loopback only). */
  readonly token?: string;
  /** The append-only episode log (JSONL), replayed at start; none: nothing survives a restart. */
  readonly logFile?: string;
  /** When the log is flushed to disk: see {@link FsyncPolicy} (default `always`). */
  readonly fsync?: FsyncPolicy;
  /** With `fsync: 'interval'`, how often (ms, default 100). */
  readonly fsyncIntervalMs?: number;
  /** A trace becomes an episode this long (ms) after its root span ended and no span came (default 2000). */
  readonly quietPeriodMs?: number;
  /** An unfinished trace is evicted this long (ms) after its first span (default 10 minutes). */
  readonly traceTimeoutMs?: number;
  /** At most this many unfinished traces are held; the oldest is evicted beyond it (default 10,000). */
  readonly maxOpenTraces?: number;
  /**
   * At most this many spans are held for one unfinished trace (default 50,000); a trace that gets
   * more is evicted (`parl_traces_evicted_total{reason="trace-spans"}`) and its later spans discarded.
   */
  readonly maxSpansPerTrace?: number;
  /**
   * At most this many spans are held over all unfinished traces (default 1,000,000); beyond it the
   * oldest unfinished traces are evicted (`parl_traces_evicted_total{reason="open-spans"}`).
   */
  readonly maxOpenSpans?: number;
  /**
   * Bytes a dashboard event stream may have waiting to be sent (default 1 MiB): a client that
   * reads slower is disconnected (`parl_event_streams_dropped_total`).
   */
  readonly maxStreamBufferBytes?: number;
  /** Least time (ms) between two dashboard snapshots sent to one event stream (default 500). */
  readonly eventIntervalMs?: number;
  /** At most this many episodes are held in memory for `GET /v1/episodes/{id}`; the oldest go (default 100,000). */
  readonly maxEpisodes?: number;
  /** The span or resource attribute naming a trace's rollout (default `parl.rollout_id`). */
  readonly rolloutAttribute?: string;
  /** Largest request body in bytes, as sent (compressed) and after gunzip (default 16 MiB). */
  readonly bodyLimit?: number;
  /** A request not received whole within this (ms) is answered 408 (default 30,000). */
  readonly requestTimeoutMs?: number;
  /** Request headers not received within this (ms) are answered 408 (default 10,000). */
  readonly headersTimeoutMs?: number;
  /** How trace spans map to records (`grouping`, `stepsFrom`, `clock`), as in `parl trace`. */
  readonly trace?: Pick<TraceOptions, 'grouping' | 'stepsFrom' | 'clock'>;
  /**
   * Worker threads that label `/v1/rewards` bodies, and read `/get_reward` bodies of 64 KiB and
   * more, `/v1/traces` requests of 128 KiB and more, and map large finished traces (default: one
   * fewer than the cores, at least 1, at most 4). 0 does all of it on the event loop, which one
   * large request then blocks for as long as its work takes. See {@link defaultLabelThreads}.
   */
  readonly labelThreads?: number;
  /**
   * Bodies waiting for a labelling thread at most (default 256): `/v1/rewards` bodies, and the
   * large `/get_reward` and `/v1/traces` bodies read on a thread; a body beyond that is answered
   * `503` with `Retry-After: 1`, so that an overloaded server sheds load instead of queueing
   * without bound.
   */
  readonly maxQueuedBodies?: number;
  /**
   * Bytes of bodies waiting for or on a labelling thread at most (default 128 MiB,
   * 8 bodies at the default body limit); a body that would go over is answered `503` with
   * `Retry-After: 1` and counted in `parl_bodies_shed_total{reason="bytes"}`. A labelling thread
   * holds about 8 to 14 times the body it labels besides it, so the labelling's memory is bounded
   * by this plus `labelThreads` × 14 × `bodyLimit`.
   */
  readonly maxQueuedBodyBytes?: number;
  /** Called with warnings (unmappable traces, evictions); default: ignored. */
  readonly onWarning?: (message: string) => void;
}

/**
 * The default of {@link ServeOptions.labelThreads}: one fewer than the cores Node may use (the event
 * loop keeps one), at least 1 and at most 4.
 */
export function defaultLabelThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** The ways the episode log is flushed to disk (see {@link FsyncPolicy}). */
export const FSYNC_POLICIES: readonly FsyncPolicy[] = ['always', 'interval', 'never'];

/** The defaults of {@link ServeOptions}. */
export const DEFAULT_SERVE_OPTIONS = {
  host: '127.0.0.1',
  port: 4318,
  fsync: 'always',
  fsyncIntervalMs: 100,
  quietPeriodMs: 2000,
  traceTimeoutMs: 10 * 60 * 1000,
  maxOpenTraces: 10_000,
  maxSpansPerTrace: 50_000,
  maxOpenSpans: 1_000_000,
  maxStreamBufferBytes: 1024 * 1024,
  eventIntervalMs: 500,
  maxEpisodes: 100_000,
  rolloutAttribute: 'parl.rollout_id',
  bodyLimit: 16 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  maxQueuedBodies: 256,
  maxQueuedBodyBytes: 128 * 1024 * 1024,
} as const;

/** {@link ServeOptions} with every default filled in. */
export interface ResolvedServeOptions {
  /** See {@link ServeOptions.host}. */
  readonly host: string;
  /** See {@link ServeOptions.port}. */
  readonly port: number;
  /** See {@link ServeOptions.token}. */
  readonly token: string | undefined;
  /** See {@link ServeOptions.logFile}. */
  readonly logFile: string | undefined;
  /** See {@link ServeOptions.fsync}. */
  readonly fsync: FsyncPolicy;
  /** See {@link ServeOptions.fsyncIntervalMs}. */
  readonly fsyncIntervalMs: number;
  /** See {@link ServeOptions.quietPeriodMs}. */
  readonly quietPeriodMs: number;
  /** See {@link ServeOptions.traceTimeoutMs}. */
  readonly traceTimeoutMs: number;
  /** See {@link ServeOptions.maxOpenTraces}. */
  readonly maxOpenTraces: number;
  /** See {@link ServeOptions.maxSpansPerTrace}. */
  readonly maxSpansPerTrace: number;
  /** See {@link ServeOptions.maxOpenSpans}. */
  readonly maxOpenSpans: number;
  /** See {@link ServeOptions.maxStreamBufferBytes}. */
  readonly maxStreamBufferBytes: number;
  /** See {@link ServeOptions.eventIntervalMs}. */
  readonly eventIntervalMs: number;
  /** See {@link ServeOptions.maxEpisodes}. */
  readonly maxEpisodes: number;
  /** See {@link ServeOptions.rolloutAttribute}. */
  readonly rolloutAttribute: string;
  /** See {@link ServeOptions.bodyLimit}. */
  readonly bodyLimit: number;
  /** See {@link ServeOptions.requestTimeoutMs}. */
  readonly requestTimeoutMs: number;
  /** See {@link ServeOptions.headersTimeoutMs}. */
  readonly headersTimeoutMs: number;
  /** See {@link ServeOptions.trace}. */
  readonly trace: Pick<TraceOptions, 'grouping' | 'stepsFrom' | 'clock'>;
  /** See {@link ServeOptions.labelThreads}. */
  readonly labelThreads: number;
  /** See {@link ServeOptions.maxQueuedBodies}. */
  readonly maxQueuedBodies: number;
  /** See {@link ServeOptions.maxQueuedBodyBytes}. */
  readonly maxQueuedBodyBytes: number;
  /** See {@link ServeOptions.onWarning}. */
  readonly onWarning: (message: string) => void;
}


/**
 * True for an address that only this machine reaches: `localhost`, `127.0.0.0/8`, `::1`.
 *
 * @example
 * ```ts
 * isLoopback('127.0.0.1'); // true
 * isLoopback('0.0.0.0'); // false
 * ```
 */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h);
}

function positive(name: string, value: number, integer = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new ParlInputError(`options.${name}`, value, integer ? 'an integer ≥ 1' : 'a number > 0');
  }
  return value;
}

/**
 * Fill in the defaults and check every option.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad value, or a non-loopback `host` without a `token`
 */
export function resolveServeOptions(options: ServeOptions = {}): ResolvedServeOptions {
  const d = DEFAULT_SERVE_OPTIONS;
  const host = options.host ?? d.host;
  const token = options.token === '' ? undefined : options.token;
  if (token === undefined && !isLoopback(host)) {
    throw new ParlInputError('options.token', undefined, `a bearer token: host ${host} is reachable from other machines (set --token or PARL_SERVE_TOKEN, or listen on 127.0.0.1)`);
  }
  const port = options.port ?? d.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ParlInputError('options.port', port, 'an integer from 0 to 65535');
  const fsync = options.fsync ?? d.fsync;
  if (!FSYNC_POLICIES.includes(fsync)) throw new ParlInputError('options.fsync', fsync, `one of ${FSYNC_POLICIES.join(', ')}`);
  const headersTimeoutMs = positive('headersTimeoutMs', options.headersTimeoutMs ?? d.headersTimeoutMs);
  const requestTimeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs ?? d.requestTimeoutMs);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ParlInputError('options.headersTimeoutMs', headersTimeoutMs, `at most requestTimeoutMs (${requestTimeoutMs})`);
  }
  const labelThreads = options.labelThreads ?? defaultLabelThreads();
  if (!Number.isInteger(labelThreads) || labelThreads < 0 || labelThreads > 64) throw new ParlInputError('options.labelThreads', labelThreads, 'an integer from 0 to 64');
  const rolloutAttribute = options.rolloutAttribute ?? d.rolloutAttribute;
  if (rolloutAttribute === '') throw new ParlInputError('options.rolloutAttribute', rolloutAttribute, 'an attribute name');
  return {
    host,
    port,
    token,
    logFile: options.logFile,
    fsync,
    fsyncIntervalMs: positive('fsyncIntervalMs', options.fsyncIntervalMs ?? d.fsyncIntervalMs),
    quietPeriodMs: options.quietPeriodMs === 0 ? 0 : positive('quietPeriodMs', options.quietPeriodMs ?? d.quietPeriodMs),
    traceTimeoutMs: positive('traceTimeoutMs', options.traceTimeoutMs ?? d.traceTimeoutMs),
    maxOpenTraces: positive('maxOpenTraces', options.maxOpenTraces ?? d.maxOpenTraces, true),
    maxSpansPerTrace: positive('maxSpansPerTrace', options.maxSpansPerTrace ?? d.maxSpansPerTrace, true),
    maxOpenSpans: positive('maxOpenSpans', options.maxOpenSpans ?? d.maxOpenSpans, true),
    maxStreamBufferBytes: positive('maxStreamBufferBytes', options.maxStreamBufferBytes ?? d.maxStreamBufferBytes, true),
    eventIntervalMs: positive('eventIntervalMs', options.eventIntervalMs ?? d.eventIntervalMs),
    maxEpisodes: positive('maxEpisodes', options.maxEpisodes ?? d.maxEpisodes, true),
    rolloutAttribute,
    bodyLimit: positive('bodyLimit', options.bodyLimit ?? d.bodyLimit, true),
    requestTimeoutMs,
    headersTimeoutMs,
    trace: options.trace ?? {},
    labelThreads,
    maxQueuedBodies: positive('maxQueuedBodies', options.maxQueuedBodies ?? d.maxQueuedBodies, true),
    maxQueuedBodyBytes: positive('maxQueuedBodyBytes', options.maxQueuedBodyBytes ?? d.maxQueuedBodyBytes, true),
    onWarning: options.onWarning ?? ((): void => {}),
  };
}

/** The episode log `parl serve` keeps when neither `--log` nor `--no-log` is given. */
export const DEFAULT_SERVE_LOG = 'parl-episodes.jsonl';

/**
 * The settings of `parl serve`, one per flag, as {@link SERVE_OPTIONS} reads them: times in
 * milliseconds, sizes in bytes. `parl serve` turns them into {@link ServeOptions}.
 */
export interface ServeSettings {
  /** Address to listen on. */
  readonly host?: string;
  /** Port; 0 picks a free one. */
  readonly port?: number;
  /** Bearer token; absent: the `PARL_SERVE_TOKEN` environment variable. */
  readonly token?: string;
  /** The episode log. */
  readonly log?: string;
  /** Keep no episode log. */
  readonly noLog?: boolean;
  /** When the log is flushed to disk. */
  readonly fsync?: FsyncPolicy;
  /** See {@link ServeOptions.quietPeriodMs}. */
  readonly quietPeriod?: number;
  /** See {@link ServeOptions.traceTimeoutMs}. */
  readonly traceTimeout?: number;
  /** See {@link ServeOptions.maxOpenTraces}. */
  readonly maxOpenTraces?: number;
  /** See {@link ServeOptions.maxSpansPerTrace}. */
  readonly maxSpansPerTrace?: number;
  /** See {@link ServeOptions.maxOpenSpans}. */
  readonly maxOpenSpans?: number;
  /** See {@link ServeOptions.maxStreamBufferBytes}. */
  readonly maxStreamBuffer?: number;
  /** See {@link ServeOptions.maxEpisodes}. */
  readonly maxEpisodes?: number;
  /** See {@link ServeOptions.rolloutAttribute}. */
  readonly rolloutAttribute?: string;
  /** See {@link ServeOptions.bodyLimit}. */
  readonly bodyLimit?: number;
  /** See {@link ServeOptions.requestTimeoutMs}. */
  readonly requestTimeout?: number;
  /** See {@link ServeOptions.labelThreads}; absent: {@link defaultLabelThreads}. */
  readonly labelThreads?: number;
  /** See {@link ServeOptions.maxQueuedBodies}. */
  readonly maxQueuedBodies?: number;
  /** Trace mapping, as in `parl trace`. */
  readonly grouping?: TraceGrouping;
  /** Trace mapping, as in `parl trace`. */
  readonly stepsFrom?: TraceStepSource;
  /** Trace mapping, as in `parl trace`. */
  readonly clock?: TraceClock;
}

/**
 * The options of `parl serve`, declared once: its flags and the docs' table are built from this.
 * The trace-mapping rows are those of `parl trace` (`TRACE_OPTIONS` of `@parl/traces`).
 *
 * @example
 * ```ts
 * resolveOptions(SERVE_OPTIONS, { port: '99999' }, 'flag');
 * // ParlInputError: --port must be a decimal integer from 0 to 65535, got "99999"
 * ```
 */
export const SERVE_OPTIONS: OptionTable<ServeSettings> = defineOptionTable<ServeSettings>({
  host: { flag: 'host', arg: 'address', parse: nonEmptyTextOption, default: DEFAULT_SERVE_OPTIONS.host, help: 'address to listen on; anything but loopback needs a token' },
  port: { flag: 'port', arg: 'n', parse: integerOptionIn(0, 65535), default: DEFAULT_SERVE_OPTIONS.port, help: 'port to listen on (the default is the OTLP/HTTP port); 0 picks a free one' },
  token: { flag: 'token', arg: 'token', parse: textOption, defaultText: '$PARL_SERVE_TOKEN', help: 'bearer token every request but /healthz and /readyz must carry' },
  log: { flag: 'log', arg: 'file', parse: nonEmptyTextOption, default: DEFAULT_SERVE_LOG, help: 'append-only episode log, replayed at start' },
  noLog: { flag: 'no-log', parse: switchOption, help: 'keep no episode log: nothing survives a restart' },
  fsync: {
    flag: 'fsync',
    arg: 'policy',
    choices: FSYNC_POLICIES,
    parse: choiceOption(FSYNC_POLICIES),
    default: DEFAULT_SERVE_OPTIONS.fsync,
    help: `always: fdatasync before each answer; interval: every ${DEFAULT_SERVE_OPTIONS.fsyncIntervalMs} ms; never`,
  },
  quietPeriod: {
    flag: 'quiet-period',
    arg: 'ms',
    parse: nonNegativeDecimalOption,
    default: DEFAULT_SERVE_OPTIONS.quietPeriodMs,
    help: 'a trace becomes an episode this long after its root span ended and no span came',
  },
  traceTimeout: {
    flag: 'trace-timeout',
    arg: 'ms',
    parse: positiveDecimalOption,
    default: DEFAULT_SERVE_OPTIONS.traceTimeoutMs,
    help: 'an unfinished trace is evicted this long after its first span',
  },
  maxOpenTraces: {
    flag: 'max-open-traces',
    arg: 'n',
    parse: positiveIntegerOption,
    default: DEFAULT_SERVE_OPTIONS.maxOpenTraces,
    help: 'unfinished traces held at most; the oldest is evicted beyond',
  },
  maxSpansPerTrace: {
    flag: 'max-spans-per-trace',
    arg: 'n',
    parse: positiveIntegerOption,
    default: DEFAULT_SERVE_OPTIONS.maxSpansPerTrace,
    help: 'spans held for one unfinished trace; beyond, the trace is evicted and its later spans discarded',
  },
  maxOpenSpans: {
    flag: 'max-open-spans',
    arg: 'n',
    parse: positiveIntegerOption,
    default: DEFAULT_SERVE_OPTIONS.maxOpenSpans,
    help: 'spans held over all unfinished traces; beyond, the oldest traces are evicted',
  },
  maxStreamBuffer: {
    flag: 'max-stream-buffer',
    arg: 'bytes',
    parse: positiveIntegerOption,
    default: DEFAULT_SERVE_OPTIONS.maxStreamBufferBytes,
    help: 'bytes waiting for one dashboard event stream; a client reading slower is disconnected',
  },
  maxEpisodes: {
    flag: 'max-episodes',
    arg: 'n',
    parse: positiveIntegerOption,
    default: DEFAULT_SERVE_OPTIONS.maxEpisodes,
    help: 'episodes held in memory for lookup (the log keeps all)',
  },
  rolloutAttribute: {
    flag: 'rollout-attribute',
    arg: 'name',
    parse: nonEmptyTextOption,
    default: DEFAULT_SERVE_OPTIONS.rolloutAttribute,
    help: "span or resource attribute naming a trace's rollout",
  },
  bodyLimit: { flag: 'body-limit', arg: 'bytes', parse: positiveIntegerOption, default: DEFAULT_SERVE_OPTIONS.bodyLimit, help: 'largest request body, as sent and after gunzip' },
  requestTimeout: {
    flag: 'request-timeout',
    arg: 'ms',
    parse: positiveDecimalOption,
    default: DEFAULT_SERVE_OPTIONS.requestTimeoutMs,
    help: 'a request not received whole in this time is answered 408',
  },
  labelThreads: {
    flag: 'label-threads',
    arg: 'n',
    parse: integerOptionIn(0, 64),
    defaultText: 'cores - 1, 1 to 4',
    help: 'worker threads labelling /v1/rewards bodies and reading large /get_reward and /v1/traces bodies and traces; 0: all on the event loop, which a large request then blocks',
  },
  maxQueuedBodies: {
    flag: 'max-queued-bodies',
    arg: 'n',
    parse: positiveIntegerOption,
    default: DEFAULT_SERVE_OPTIONS.maxQueuedBodies,
    help: 'bodies waiting for a labelling thread at most; beyond, 503 with Retry-After',
  },
  grouping: TRACE_OPTIONS.grouping,
  stepsFrom: TRACE_OPTIONS.stepsFrom,
  clock: TRACE_OPTIONS.clock,
});
