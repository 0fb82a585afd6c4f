/**
 * Commander flags built from option tables (`@parl/core`'s `OptionTable`): one flag per row, its
 * help followed by the default the row declares, its value checked by the row's parser as it is
 * read, and the typed config resolved from what was given. A new option is a row in its table;
 * nothing here changes.
 *
 * @module
 */
import { defaultOf, optionRows, ParlInputError, resolveOptions, type OptionRow, type ResolvedOptions } from '@parl/core';
import { commonJsInputError } from '../optional-packages.js';
import { InvalidArgumentError, Option, type Command } from 'commander';

/** The help line of a row: its help, then its default when it has one. */
function helpOf(row: OptionRow<unknown>): string {
  const shown = defaultOf(row);
  return shown === undefined ? row.help : `${row.help} (default: ${shown})`;
}

/**
 * The commander option of one row. Its text is checked as commander reads it: a text the row
 * rejects is commander's usage error (`option '--port <n>' argument '99999' is invalid. Expected
 * a decimal integer from 0 to 65535.`, exit code 2); an error about a part of the value
 * (`--lambda1.steps`), or one that does not show the text as given (a header whose value may be a
 * secret), is left to run-cli, which prints it as one line.
 */
export function optionFlag(row: OptionRow<unknown>): Option {
  const flag = `--${row.flag}`;
  const option = new Option(row.arg === undefined ? flag : `${flag} <${row.arg}>`, helpOf(row));
  if (row.required === true) option.makeOptionMandatory();
  if (row.choices !== undefined) return option.choices(row.choices);
  if (row.arg === undefined) return option;
  return option.argParser((text: string, previous: unknown) => {
    try {
      row.parse(text, flag);
    } catch (err) {
      const input = commonJsInputError(err) ?? (err instanceof ParlInputError ? err : undefined);
      // Commander's message repeats the text; a row that would not (a header's value, a secret) says its own line.
      if (input?.field === flag && input.value === text) throw new InvalidArgumentError(`Expected ${input.expected}.`);
      throw err;
    }
    // A repeatable flag keeps every text, in order, one per line (its row's parser splits them).
    return row.repeatable === true && typeof previous === 'string' ? `${previous}\n${text}` : text;
  });
}

/**
 * Add a flag for every row of `table` to `cmd`, in the table's order (a `required` row's flag is
 * mandatory: commander says so when it is missing).
 *
 * @example
 * ```ts
 * addOptionFlags(new Command('reward'), REWARD_OPTIONS);
 * ```
 */
export function addOptionFlags(cmd: Command, table: object): Command {
  for (const [, row] of optionRows(table)) cmd.addOption(optionFlag(row));
  return cmd;
}

/**
 * The texts of the flags of `table` given on `cmd`'s command line, by flag name (a switch reads
 * `'true'`); defaults commander filled in do not count.
 */
export function givenFlagTexts(cmd: Command, table: object): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [, row] of optionRows(table)) {
    const option = cmd.options.find((o) => o.long === `--${row.flag}`);
    if (option === undefined) continue;
    const name = option.attributeName();
    if (cmd.getOptionValueSource(name) !== 'cli') continue;
    const value: unknown = cmd.getOptionValue(name);
    // `--log FILE` and `--no-log` share one value: a text for the one, false for the other.
    if (row.arg !== undefined) {
      if (typeof value === 'string') texts[row.flag] = value;
    } else if (value === !option.negate) texts[row.flag] = 'true';
  }
  return texts;
}

/**
 * The typed config `table` resolves to from the flags given on `cmd` (defaults filled in by the
 * table's rows), for an action to hand to its command.
 *
 * @throws {@link @parl/core!ParlInputError} naming the flag when a value is bad
 */
export function optionsFromFlags<T extends object>(cmd: Command, table: T): ResolvedOptions<T> {
  return resolveOptions(table, givenFlagTexts(cmd, table), 'flag');
}
