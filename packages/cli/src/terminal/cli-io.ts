/**
 * The streams a command talks through, so that commands run the same in-process (tests) and
 * from the `parl` bin.
 *
 * @module
 */
import { describeFsError } from '../errors.js';
import { removeTempPaths } from '@parl/io';


/** The standard streams of one CLI invocation. Records go to stdout; logs and progress to stderr. */
export interface CliIo {
  /** Where records are read from when no `--in` is given. */
  readonly stdin: NodeJS.ReadableStream;
  /** Where records and tables go when no `--out` is given. */
  readonly stdout: NodeJS.WritableStream;
  /** Logs, warnings, progress. */
  readonly stderr: NodeJS.WritableStream;
  /** Whether stderr is a terminal: a progress bar is drawn only then. */
  readonly stderrIsTTY: boolean;
}

/**
 * End quietly when the reader of stdout goes away (`parl reward … | head`): EPIPE is not an error
 * of the command. Output files are not affected (they are never written through stdout). Any other
 * stdout error (a full disk, `> /dev/full`) ends the command with one line and exit code 1.
 */
export function exitQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    removeTempPaths();
    if (err.code === 'EPIPE') process.exit(0);
    process.stderr.write(`parl: cannot write stdout: ${describeFsError(err)}\n`);
    process.exit(1);
  });
}

/** The process's own streams. */
export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stderrIsTTY: process.stderr.isTTY === true,
  };
}

/** Write one line to stderr. */
export function logLine(io: CliIo, line: string): void {
  io.stderr.write(`${line}\n`);
}
