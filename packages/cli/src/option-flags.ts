/**
 * Commander flags built from option tables (`@parl/core`'s `OptionTable`): one flag per row, its
 * help followed by the default the row declares, its value checked by the row's parser as it is
 * read, and the typed config resolved from what was given. A new option is a row in its table;
 * nothing here changes.
 *
 * @module
 */
import { defaultOf, optionRows, resolveOptions, type OptionRow, type OptionTable } from '@parl/core';
import { InvalidArgumentError, Option, type Command } from 'commander';

/**
 * The field and expectation of a `ParlInputError`, recognised by name: a table read through
 * `require` (`@parl/serve/options`) throws the CommonJS build's class, which `instanceof` against
 * the ES module build does not match.
 */
function inputErrorOf(err: unknown): { readonly field: string; readonly expected: string } | undefined {
  if (!(err instanceof Error) || err.name !== 'ParlInputError') return undefined;
  const { field, expected } = err as Error & { field?: unknown; expected?: unknown };
  return typeof field === 'string' && typeof expected === 'string' ? { field, expected } : undefined;
}

/** The help line of a row: its help, then its default when it has one. */
function helpOf(row: OptionRow<unknown>): string {
  const shown = defaultOf(row);
  return shown === undefined ? row.help : `${row.help} (default: ${shown})`;
}

/**
 * The commander option of one row. Its text is checked as commander reads it: a text the row
 * rejects is commander's usage error (`option '--port <n>' argument '99999' is invalid. Expected
 * a decimal integer from 0 to 65535.`, exit code 2); an error about a part of the value
 * (`--lambda1.steps`) is left to run-cli, which prints it as one line.
 */
export function optionFlag(row: OptionRow<unknown>): Option {
  const flag = `--${row.flag}`;
  const option = new Option(row.arg === undefined ? flag : `${flag} <${row.arg}>`, helpOf(row));
  if (row.choices !== undefined) return option.choices(row.choices);
  if (row.arg === undefined) return option;
  return option.argParser((text: string, previous: unknown) => {
    try {
      row.parse(text, flag);
    } catch (err) {
      const input = inputErrorOf(err);
      if (input?.field === flag) throw new InvalidArgumentError(`Expected ${input.expected}.`);
      throw err;
    }
    // A repeatable flag keeps every text, in order, one per line (its row's parser splits them).
    return row.repeatable === true && typeof previous === 'string' ? `${previous}\n${text}` : text;
  });
}

/**
 * Add a flag for every row of `table` to `cmd`, in the table's order.
 *
 * @example
 * ```ts
 * addOptionFlags(new Command('reward'), REWARD_OPTIONS);
 * ```
 */
export function addOptionFlags<C>(cmd: Command, table: OptionTable<C>): Command {
  for (const [, row] of optionRows(table)) cmd.addOption(optionFlag(row));
  return cmd;
}

/**
 * The texts of the flags of `table` given on `cmd`'s command line, by flag name (a switch reads
 * `'true'`); defaults commander filled in do not count.
 */
export function givenFlagTexts<C>(cmd: Command, table: OptionTable<C>): Record<string, string> {
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
export function optionsFromFlags<C>(cmd: Command, table: OptionTable<C>): C {
  return resolveOptions(table, givenFlagTexts(cmd, table), 'flag');
}
