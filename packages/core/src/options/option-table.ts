/**
 * Option tables: each option set (reward, critical steps, trace reading, serve, swarm) is declared
 * once, as one row per option, in the package that owns it. Commander's flags, Fastify's query
 * schema, the typed config and the docs' option tables are all built from the table, so a new
 * option is one row.
 *
 * @module
 */
import { ParlInputError } from '../errors.js';

/**
 * One option: how it is named on the command line and over HTTP, how its text is read, its
 * default and its help.
 *
 * @typeParam T - the value the option holds once parsed
 */
export interface OptionRow<T> {
  /** The flag's name in kebab case, without dashes: `lambda1` is `--lambda1`. */
  readonly flag: string;
  /** The HTTP query parameter's name, when the option is offered over HTTP. */
  readonly query?: string;
  /** The value's placeholder in help (`SCHEDULE`, `n`); absent: a switch that takes no value. */
  readonly arg?: string;
  /** The values the option takes, when it is one of a fixed set (shown in help and docs). */
  readonly choices?: readonly string[];
  /**
   * Read the option's text (a switch given on the command line reads `'true'`).
   *
   * @param text - the text as typed
   * @param field - the name to put in an error: `--lambda1` for a flag, `query.lambda1` for a
   *   query parameter
   * @throws {@link ParlInputError} naming `field` (or a path under it), the text and what was expected
   */
  parse(text: string, field: string): T;
  /** The value when the option is not given; absent: the option is undefined in the config. */
  readonly default?: T;
  /**
   * How help and docs show a default that is not one fixed value (`cores - 1, 1 to 4`, `the
   * input format`, `linear 0.1 → 0 over total-steps`). A fixed {@link OptionRow.default} is shown
   * by itself, so neither this nor {@link OptionRow.help} restates it.
   */
  readonly defaultText?: string;
  /** What the option does, in one phrase; never its default (help and docs print that). */
  readonly help: string;
  /**
   * The flag may be given more than once (`--mcp A --mcp B`): the command line hands
   * {@link OptionRow.parse} the texts joined by newlines, in the order given.
   */
  readonly repeatable?: boolean;
}

/**
 * The option table of a config type `C`: exactly one row per key of `C`, so a missing or an extra
 * row is a compile error (pass the table to {@link defineOptionTable} with `C` given).
 *
 * @typeParam C - the config the table resolves to
 */
export type OptionTable<C> = { readonly [K in keyof Required<C>]-?: OptionRow<Exclude<C[K], undefined>> };

/**
 * Declare an option table for the config type `C`. It returns the table unchanged; what it adds is
 * the check that every key of `C` has exactly one row, and that no flag or query name is used twice.
 *
 * @throws {@link ParlInputError} when two rows share a flag or a query name, or a name is not kebab/snake case
 *
 * @example
 * ```ts
 * interface Limits { readonly depth?: number }
 * const LIMITS = defineOptionTable<Limits>({
 *   depth: { flag: 'depth', query: 'depth', arg: 'n', parse: positiveIntegerOption, default: 4, help: 'levels kept' },
 * });
 * resolveOptions(LIMITS, { depth: '7' }, 'flag'); // { depth: 7 }
 * ```
 */
export function defineOptionTable<C>(table: OptionTable<C>): OptionTable<C> {
  checkNames(table as unknown as Readonly<Record<string, OptionRow<unknown>>>);
  return table;
}

/** Flag and query names: lower-case letters, digits, `-` or `_`, starting with a letter. */
const OPTION_NAME = /^[a-z][a-z0-9_-]*$/;

function checkNames(table: Readonly<Record<string, OptionRow<unknown>>>): void {
  const flags = new Map<string, string>();
  const queries = new Map<string, string>();
  for (const [key, row] of Object.entries(table)) {
    claim(flags, row.flag, key, 'flag');
    if (row.query !== undefined) claim(queries, row.query, key, 'query');
  }
}

function claim(seen: Map<string, string>, name: string, key: string, kind: string): void {
  if (!OPTION_NAME.test(name)) {
    throw new ParlInputError(`${key}.${kind}`, name, 'a name of lower-case letters, digits, - or _, starting with a letter');
  }
  const other = seen.get(name);
  if (other !== undefined) throw new ParlInputError(`${key}.${kind}`, name, `a ${kind} name no other row uses (${other} has it)`, undefined, 'PARL_ERR_CONFLICT');
  seen.set(name, key);
}

/** The rows of a table with their config keys, in declaration order. */
export function optionRows<C>(table: OptionTable<C>): readonly (readonly [key: keyof C & string, row: OptionRow<unknown>])[] {
  return Object.entries(table) as unknown as readonly (readonly [keyof C & string, OptionRow<unknown>])[];
}

/**
 * How help and docs show a row's default: its {@link OptionRow.defaultText}, else its fixed
 * default (numbers and strings as typed, anything else as JSON), else undefined (no default, or
 * a switch: a switch is off unless given, which needs no saying).
 *
 * @example
 * ```ts
 * defaultOf({ flag: 'port', arg: 'n', parse: Number, default: 4318, help: 'port' }); // '4318'
 * ```
 */
export function defaultOf(row: OptionRow<unknown>): string | undefined {
  if (row.defaultText !== undefined) return row.defaultText;
  const d = row.default;
  if (d === undefined || row.arg === undefined) return undefined;
  if (typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean') return String(d);
  return JSON.stringify(d);
}
