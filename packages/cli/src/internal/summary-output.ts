/**
 * Printing a command's end-of-run summary: one human line on stderr, or with `--json` one JSON
 * object — on stdout when stdout is not carrying the command's output, else on stderr.
 *
 * @module
 */
import type { CliIo } from '../terminal/cli-io.js';

/**
 * Print `summary`.
 *
 * @param stdoutFree - true when the command wrote its output to a file, so stdout can take the JSON
 * @param human - the line shown without `--json` (nothing when undefined)
 */
export function printSummary(io: CliIo, json: boolean, stdoutFree: boolean, summary: unknown, human?: string): void {
  if (json) {
    (stdoutFree ? io.stdout : io.stderr).write(`${JSON.stringify(summary)}\n`);
    return;
  }
  if (human !== undefined) io.stderr.write(`${human}\n`);
}
