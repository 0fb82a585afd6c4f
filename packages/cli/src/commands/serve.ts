/**
 * `parl serve`: run `@parl/serve` (spec §8) until SIGINT or SIGTERM, then shut down gracefully
 * (in-flight requests finish, the episode log is flushed). Loads no simulator and no TensorFlow.js.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { createParlServer, DEFAULT_SERVE_LOG, type ParlServer, type ServeOptions, type ServeSettings } from '@parl/serve';
import type { CliIo } from '../terminal/cli-io.js';
import { onSignalBeforeExit } from '@parl/io';

/**
 * Options of {@link serveCommand}: `@parl/serve`'s `ServeSettings`, one per flag, as the program
 * resolves them from `SERVE_OPTIONS` (defaults filled in).
 */
export type ServeCommandOptions = ServeSettings;

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
