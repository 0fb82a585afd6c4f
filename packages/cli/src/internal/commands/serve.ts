/**
 * `parl serve`: run `@parl/serve` (spec §8) until SIGINT or SIGTERM, then shut down gracefully
 * (in-flight requests finish, the episode log is flushed). Loads no simulator and no TensorFlow.js.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { createParlServer, DEFAULT_SERVE_LOG, SERVE_OPTIONS, type OptionsOf, type ParlServer, type ServeOptions } from '@parl/serve';
import type { CliIo } from '../../terminal/cli-io.js';
import { onSignalBeforeExit } from '@parl/io';

/**
 * Options of {@link serveCommand}: `@parl/serve`'s options as the program resolves them from
 * their flags (`SERVE_OPTIONS`, defaults filled in), the same keys `createParlServer` takes.
 */
export type ServeCommandOptions = OptionsOf<typeof SERVE_OPTIONS>;

/** The flag of a server option an error names (`port`, `options.token`), from the option table. */
function flagOf(field: string): string | undefined {
  const row = (SERVE_OPTIONS as Readonly<Record<string, { readonly flag: string } | undefined>>)[field.replace(/^options\./, '')];
  return row === undefined ? undefined : `--${row.flag}`;
}

/** Start the server; an error naming a server option names its flag instead. */
async function startServer(options: ServeOptions): Promise<ParlServer> {
  try {
    return await createParlServer(options);
  } catch (err) {
    const flag = err instanceof ParlInputError ? flagOf(err.field) : undefined;
    if (err instanceof ParlInputError && flag !== undefined) throw new ParlInputError(flag, err.value, err.expected, err.location);
    throw err;
  }
}

/**
 * Start the server and print where it listens; resolves with the running server (the process
 * keeps running until a signal). The options go to `createParlServer` as they are; `parl serve`
 * adds only its own defaults: the token from `PARL_SERVE_TOKEN`, and an episode log
 * (`parl-episodes.jsonl`) unless `--log` or `--no-log` is given.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad option, or a non-loopback host without a token
 */
export async function serveCommand(options: ServeCommandOptions, io: CliIo): Promise<ParlServer> {
  const token = options.token ?? process.env['PARL_SERVE_TOKEN'];
  const server = await startServer({
    ...options,
    ...(token === undefined ? {} : { token }),
    ...(options.logFile === undefined && options.noLog !== true ? { logFile: DEFAULT_SERVE_LOG } : {}),
    onWarning: (message) => io.stderr.write(`parl serve: warning: ${message}\n`),
  });
  const logFile = server.options.logFile;
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
