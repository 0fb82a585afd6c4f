/**
 * `@parl/cli`: the `parl` command. Its library surface is the entry point, {@link runCli}, which
 * runs any `parl` command line in-process with your own streams ({@link CliIo}) and returns the
 * exit code; the commands' options are the flags documented in the CLI guide. The PARL functions
 * themselves live in `@parl/core`, `@parl/sim` (training, run folders and sweeps: `runSweep`) and
 * `@parl/traces`.
 *
 * @packageDocumentation
 */
export { runCli, EXIT_USAGE } from './run-cli.js';
export { CLI_VERSION } from './program.js';
export type { CliIo } from './terminal/cli-io.js';
export { CliError } from './errors.js';

