/**
 * `parl serve`: run `@parl/serve` (spec §8) until SIGINT or SIGTERM, then shut down gracefully
 * (in-flight requests finish, the episode log is flushed). Loads no simulator and no TensorFlow.js.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { createParlServer, type FsyncPolicy, type ParlServer, type ServeOptions } from '@parl/serve';
import type { TraceClock, TraceGrouping, TraceStepSource } from '@parl/traces';
import type { CliIo } from '../io/cli-io.js';
import { onSignalBeforeExit } from '@parl/io';

/** Options of {@link serveCommand}, one per flag. */
export interface ServeCommandOptions {
  /** `--host` (default 127.0.0.1). */
  readonly host?: string;
  /** `--port` (default 4318). */
  readonly port?: number;
  /** `--token`, else the `PARL_SERVE_TOKEN` environment variable. */
  readonly token?: string;
  /** `--log`: the episode log (default `parl-episodes.jsonl`). */
  readonly log?: string;
  /** `--no-log`: keep nothing across restarts. */
  readonly noLog?: boolean;
  /** `--fsync`. */
  readonly fsync?: FsyncPolicy;
  /** `--quiet-period` (ms). */
  readonly quietPeriod?: number;
  /** `--trace-timeout` (ms). */
  readonly traceTimeout?: number;
  /** `--max-open-traces`. */
  readonly maxOpenTraces?: number;
  /** `--max-spans-per-trace`. */
  readonly maxSpansPerTrace?: number;
  /** `--max-open-spans`. */
  readonly maxOpenSpans?: number;
  /** `--max-stream-buffer` (bytes). */
  readonly maxStreamBuffer?: number;
  /** `--max-episodes`. */
  readonly maxEpisodes?: number;
  /** `--rollout-attribute`. */
  readonly rolloutAttribute?: string;
  /** `--body-limit` (bytes). */
  readonly bodyLimit?: number;
  /** `--request-timeout` (ms). */
  readonly requestTimeout?: number;
  /** `--label-threads`. */
  readonly labelThreads?: number;
  /** `--max-queued-bodies`. */
  readonly maxQueuedBodies?: number;
  /** `--grouping`. */
  readonly grouping?: TraceGrouping;
  /** `--steps-from`. */
  readonly stepsFrom?: TraceStepSource;
  /** `--clock`. */
  readonly clock?: TraceClock;
}

/** The flag of each server option a start-up error may name (a busy port, a bad log file). */
const FLAG_OF: Readonly<Record<string, string>> = { port: '--port', host: '--host', logFile: '--log' };

/** Start the server; an error naming a server option names its flag instead. */
async function startServer(options: ServeOptions): Promise<ParlServer> {
  try {
    return await createParlServer(options);
  } catch (err) {
    const flag = err instanceof ParlInputError ? FLAG_OF[err.field] : undefined;
    if (err instanceof ParlInputError && flag !== undefined) throw new ParlInputError(flag, err.value, err.expected, err.location);
    throw err;
  }
}

/** The default episode log of `parl serve`. */
export const DEFAULT_SERVE_LOG = 'parl-episodes.jsonl';

/**
 * Start the server and print where it listens; resolves with the running server (the process
 * keeps running until a signal).
 *
 * @throws {@link @parl/core!ParlInputError} for a bad option, or a non-loopback host without a token
 */
export async function serveCommand(options: ServeCommandOptions, io: CliIo): Promise<ParlServer> {
  const token = options.token ?? process.env['PARL_SERVE_TOKEN'];
  const logFile = options.noLog === true ? undefined : (options.log ?? DEFAULT_SERVE_LOG);
  const trace = {
    ...(options.grouping === undefined ? {} : { grouping: options.grouping }),
    ...(options.stepsFrom === undefined ? {} : { stepsFrom: options.stepsFrom }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  };
  const server = await startServer({
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(token === undefined || token === '' ? {} : { token }),
    ...(logFile === undefined ? {} : { logFile }),
    ...(options.fsync === undefined ? {} : { fsync: options.fsync }),
    ...(options.quietPeriod === undefined ? {} : { quietPeriodMs: options.quietPeriod }),
    ...(options.traceTimeout === undefined ? {} : { traceTimeoutMs: options.traceTimeout }),
    ...(options.maxOpenTraces === undefined ? {} : { maxOpenTraces: options.maxOpenTraces }),
    ...(options.maxSpansPerTrace === undefined ? {} : { maxSpansPerTrace: options.maxSpansPerTrace }),
    ...(options.maxOpenSpans === undefined ? {} : { maxOpenSpans: options.maxOpenSpans }),
    ...(options.maxStreamBuffer === undefined ? {} : { maxStreamBufferBytes: options.maxStreamBuffer }),
    ...(options.maxEpisodes === undefined ? {} : { maxEpisodes: options.maxEpisodes }),
    ...(options.rolloutAttribute === undefined ? {} : { rolloutAttribute: options.rolloutAttribute }),
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.labelThreads === undefined ? {} : { labelThreads: options.labelThreads }),
    ...(options.maxQueuedBodies === undefined ? {} : { maxQueuedBodies: options.maxQueuedBodies }),
    ...(options.requestTimeout === undefined ? {} : { requestTimeoutMs: options.requestTimeout, headersTimeoutMs: Math.min(10_000, options.requestTimeout) }),
    trace,
    onWarning: (message) => io.stderr.write(`parl serve: warning: ${message}\n`),
  });
  onSignalBeforeExit(async () => {
    io.stderr.write('parl serve: shutting down (finishing requests in flight)\n');
    await server.close();
  });
  const replayed = server.service.replayed;
  io.stderr.write(
    `parl serve: listening on ${server.url} (episode log: ${logFile ?? 'none'}${replayed > 0 ? `, ${replayed} entries replayed` : ''}; auth: ${token ? 'bearer token' : 'none, loopback only'})\n` +
      `parl serve: dashboard ${server.url}/, OTLP ${server.url}/v1/traces, rewards ${server.url}/v1/rewards, OpenRLHF ${server.url}/get_reward\n`,
  );
  return server;
}
