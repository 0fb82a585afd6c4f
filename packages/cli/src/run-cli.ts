/**
 * Running the `parl` program and turning every outcome into an exit code: 0 done, 2 bad flags or
 * bad input (one clear message, no stack trace), 1 an unexpected failure.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { CommanderError } from 'commander';
import { exitQuietlyOnClosedStdout, processIo, type CliIo } from './terminal/cli-io.js';
import { ParlIoError, removeTempPathsOnSignal } from '@parl/io';
import { buildProgram } from './program.js';
import { fromCommonJsBuild } from './optional-packages.js';

/** The program itself, for the repository's docs script (dist/run-cli.js is not a public entry). */
export { buildProgram } from './program.js';
/** The docs' generated option tables, for the repository's docs script. */
export { withOptionTables } from './docs-option-tables.js';

/** Exit code for bad flags and bad input. */
export const EXIT_USAGE = 2;

/**
 * Run `parl` with `argv` (as in `process.argv`: node, script, then arguments) and return its exit
 * code. Everything it prints goes through `io` (the process's streams by default, in which case a
 * closed stdout pipe ends the run quietly). The bin is `process.exitCode = await runCli(process.argv)`.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * await runCli(['node', 'parl', 'schedule', 'linear:0.3:0:100', '--points', '3', '--csv', '--html', 'schedule.html'], io); // 0
 * (await readFile('schedule.html', 'utf8')).startsWith('<!doctype html>'); // true
 * await runCli(['node', 'parl', 'schedule', 'linear:0.3'], io); // 2: a bad schedule spec is bad input
 * ```
 */
export async function runCli(argv: readonly string[], io?: CliIo): Promise<number> {
  if (io === undefined) {
    exitQuietlyOnClosedStdout();
    removeTempPathsOnSignal();
    return runCli(argv, processIo());
  }
  // An optional package's flags are read only when the command line names its command, so that
  // `parl reward` and `parl --help` load none of them.
  const words = argv.slice(2);
  const program = buildProgram(io, (command) => words.includes(command));
  const command = commandName(program, words);
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (thrown) {
    const err = fromCommonJsBuild(thrown);
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    if (err instanceof ParlInputError) {
      io.stderr.write(`${command}: ${err.message}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof ParlIoError) {
      io.stderr.write(`${command}: ${err.message}\n`);
      return err.exitCode;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`${command}: unexpected error: ${message}\n`);
    if (process.env['PARL_DEBUG'] !== undefined && err instanceof Error && err.stack !== undefined) io.stderr.write(`${err.stack}\n`);
    return 1;
  }
}

/** What an error line starts with: `parl`, `parl reward`, or with a subcommand `parl swarm eval`, as the command line named it. */
function commandName(program: ReturnType<typeof buildProgram>, words: readonly string[]): string {
  const [first, second] = words;
  if (first === undefined || first.startsWith('-')) return 'parl';
  const sub = program.commands.find((c) => c.name() === first)?.commands.find((c) => c.name() === second);
  return sub === undefined ? `parl ${first}` : `parl ${first} ${sub.name()}`;
}
