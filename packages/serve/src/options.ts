/**
 * The options of {@link createParlServer}, their defaults, and the checks run before a server
 * starts (a non-loopback address needs a token).
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { TraceOptions } from '@parl/traces';
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
   * Worker threads that label `/v1/rewards` bodies (default: one fewer than the cores, at least 1,
   * at most 4); 0 labels on the event loop. See {@link defaultLabelThreads}.
   */
  readonly labelThreads?: number;
  /**
   * `/v1/rewards` bodies waiting for a labelling thread at most (default 256); a body beyond that
   * is answered `503` with `Retry-After: 1`, so that an overloaded server sheds load instead of
   * queueing without bound.
   */
  readonly maxQueuedBodies?: number;
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
  maxEpisodes: 100_000,
  rolloutAttribute: 'parl.rollout_id',
  bodyLimit: 16 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  maxQueuedBodies: 256,
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
  /** See {@link ServeOptions.onWarning}. */
  readonly onWarning: (message: string) => void;
}

const FSYNC_POLICIES: readonly FsyncPolicy[] = ['always', 'interval', 'never'];

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
    maxEpisodes: positive('maxEpisodes', options.maxEpisodes ?? d.maxEpisodes, true),
    rolloutAttribute,
    bodyLimit: positive('bodyLimit', options.bodyLimit ?? d.bodyLimit, true),
    requestTimeoutMs,
    headersTimeoutMs,
    trace: options.trace ?? {},
    labelThreads,
    maxQueuedBodies: positive('maxQueuedBodies', options.maxQueuedBodies ?? d.maxQueuedBodies, true),
    onWarning: options.onWarning ?? ((): void => {}),
  };
}
