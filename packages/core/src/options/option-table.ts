/**
 * Option tables: each option set (reward, critical steps, trace reading, serve, swarm) is declared
 * once, as one row per option, in the package that owns it, and is nothing else: the option types
 * are derived from the table ({@link OptionsOf} for what a caller gives, {@link ResolvedOptions}
 * for what {@link resolveOptions} returns), as vitest's `CLIOptions<Config>` relates its config
 * and its flags. Commander's flags, Fastify's query schema, the typed config and the docs' option
 * tables are all built from the table, so a new option is one row.
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
   * @throws a `ParlInputError` naming `field` (or a path under it), the text and what was expected
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
   * The option must be given: commander refuses a command line without the flag, and
   * {@link resolveOptions} refuses raw options without it (`PARL_ERR_MISSING_FIELD`). A required
   * row has no default. Its key is required in {@link OptionsOf} and {@link ResolvedOptions}.
   */
  readonly required?: true;
  /**
   * The unit of the value (`s`, `ms`, `bytes`), shown after the default in help and docs
   * (`30 s`), so that neither the help nor the placeholder has to say it.
   */
  readonly unit?: string;
  /**
   * The key of another row of the table that must be given whenever this one is (`queueName`
   * needs `queue`): {@link resolveOptions} refuses this option without it, naming both.
   */
  readonly needs?: string;
  /**
   * The key of another row of the table that must not be given with this one (`mcpPrivateKey`
   * conflicts with `mcpClientSecret`: a client authenticates with one or the other):
   * {@link resolveOptions} refuses the two together, naming both (`PARL_ERR_CONFLICT`).
   */
  readonly conflicts?: string;
  /**
   * The flag may be given more than once (`--mcp A --mcp B`): the command line hands
   * its `parse` the texts joined by newlines, in the order given.
   */
  readonly repeatable?: boolean;
}

/**
 * A row of any value: what a table's rows are constrained to.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a row's value type is whatever its parser returns
export type AnyOptionRow = OptionRow<any>;

/** An option table: one {@link OptionRow} per config key, in the order help and docs list them. */
export type OptionRows = { readonly [key: string]: AnyOptionRow };

/** The value a row holds once parsed: what its `parse` returns. */
export type OptionValue<R> = R extends { parse(text: string, field: string): infer T } ? T : never;

/** The keys of `T` whose rows say `required: true`. */
export type RequiredOptionKey<T> = { [K in keyof T]-?: T[K] extends { readonly required: true } ? K : never }[keyof T];

/** The keys of `T` whose rows give a `default`. */
export type DefaultedOptionKey<T> = { [K in keyof T]-?: T[K] extends { readonly default: unknown } ? K : never }[keyof T];

/** An intersection of object types shown as one object type (in hovers and the API report). */
export type Flat<T> = { [K in keyof T]: T[K] } & {};

/**
 * The options a caller gives for the table `T` (a library call, a config file): one optional field
 * per row, typed by the row's parser; required for a row with `required: true`.
 *
 * @typeParam T - the table, as `typeof TABLE`
 *
 * @example
 * ```ts
 * const LIMITS = defineOptionTable({
 *   depth: { flag: 'depth', arg: 'n', parse: positiveIntegerOption, default: 4, help: 'levels kept' },
 *   name: { flag: 'name', arg: 'text', parse: nonEmptyTextOption, required: true, help: 'what to call it' },
 * });
 * type Limits = OptionsOf<typeof LIMITS>; // { readonly name: string; readonly depth?: number }
 * ```
 */
export type OptionsOf<T> = Flat<
  { readonly [K in RequiredOptionKey<T>]: OptionValue<T[K]> } & { readonly [K in Exclude<keyof T, RequiredOptionKey<T>>]?: OptionValue<T[K]> }
>;

/**
 * The options {@link resolveOptions} returns for the table `T`: like {@link OptionsOf}, but a row
 * with a default is always there.
 *
 * @typeParam T - the table, as `typeof TABLE`
 */
export type ResolvedOptions<T> = Flat<
  { readonly [K in RequiredOptionKey<T> | DefaultedOptionKey<T>]: OptionValue<T[K]> } & {
    readonly [K in Exclude<keyof T, RequiredOptionKey<T> | DefaultedOptionKey<T>>]?: OptionValue<T[K]>;
  }
>;

/** Each row of `T` checked against its own parser: a default of another type is a compile error. */
export type CheckedRows<T> = { readonly [K in keyof T]: OptionRow<OptionValue<T[K]>> };

/**
 * The option table of a config type `C` written by hand: exactly one row per key of `C`, so a
 * missing or an extra row is a compile error. Prefer declaring the table alone and deriving the
 * config from it ({@link OptionsOf}); this form is for a config type that exists for another reason.
 *
 * @typeParam C - the config the table resolves to
 */
export type OptionTable<C> = { readonly [K in keyof Required<C>]-?: OptionRow<Exclude<C[K], undefined>> };

/**
 * Declare an option table. It returns the table unchanged; what it adds is the check that no flag
 * or query name is used twice, that a required row has no default, and (at compile time) that
 * each row's default is of the type its parser returns. The option types come from the table:
 * {@link OptionsOf} and {@link ResolvedOptions} of `typeof TABLE`.
 *
 * With a config type `C` given (`defineOptionTable<C>({...})`), the table must have exactly one
 * row per key of `C` instead.
 *
 * @throws {@link ParlInputError} when two rows share a flag or a query name, a name is not
 *   kebab/snake case, or a required row has a default
 *
 * @example
 * ```ts
 * const LIMITS = defineOptionTable({
 *   depth: { flag: 'depth', query: 'depth', arg: 'n', parse: positiveIntegerOption, default: 4, help: 'levels kept' },
 * });
 * resolveOptions(LIMITS, { depth: '7' }, 'flag'); // { depth: 7 }
 * resolveOptions(LIMITS, {}, 'library').depth; // 4
 * ```
 */
export function defineOptionTable<T extends OptionRows>(table: T & NoInfer<CheckedRows<T>>): T;
export function defineOptionTable<C = never>(table: OptionTable<NoInfer<C>>): OptionTable<C>;
export function defineOptionTable(table: OptionRows): OptionRows {
  checkNames(table);
  return table;
}

/** Flag and query names: lower-case letters, digits, `-` or `_`, starting with a letter. */
const OPTION_NAME = /^[a-z][a-z0-9_-]*$/;

function checkNames(table: OptionRows): void {
  const flags = new Map<string, string>();
  const queries = new Map<string, string>();
  for (const [key, row] of Object.entries(table)) {
    claim(flags, row.flag, key, 'flag');
    if (row.query !== undefined) claim(queries, row.query, key, 'query');
    if (row.needs !== undefined && !Object.hasOwn(table, row.needs)) {
      throw new ParlInputError(`${key}.needs`, row.needs, 'the key of another row of the table', undefined, 'PARL_ERR_UNKNOWN_NAME');
    }
    if (row.conflicts !== undefined && (row.conflicts === key || !Object.hasOwn(table, row.conflicts))) {
      throw new ParlInputError(`${key}.conflicts`, row.conflicts, 'the key of another row of the table', undefined, 'PARL_ERR_UNKNOWN_NAME');
    }
    if (row.required === true && row.default !== undefined) {
      throw new ParlInputError(`${key}.default`, row.default, 'absent: a required option has no default', undefined, 'PARL_ERR_CONFLICT');
    }
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
export function optionRows<T extends object>(table: T): readonly (readonly [key: keyof T & string, row: OptionRow<unknown>])[] {
  return Object.entries(table) as unknown as readonly (readonly [keyof T & string, OptionRow<unknown>])[];
}

/**
 * How help and docs show a row's default: its {@link OptionRow.defaultText}, else its fixed
 * default (numbers and strings as typed, anything else as JSON) followed by its
 * {@link OptionRow.unit}, else undefined (no default, or a switch: a switch is off unless given,
 * which needs no saying).
 *
 * @example
 * ```ts
 * defaultOf({ flag: 'port', arg: 'n', parse: Number, default: 4318, help: 'port' }); // "4318"
 * defaultOf({ flag: 'stalled-after', arg: 'seconds', parse: Number, default: 30, unit: 's', help: 'stall time' }); // "30 s"
 * ```
 */
export function defaultOf(row: OptionRow<unknown>): string | undefined {
  if (row.defaultText !== undefined) return row.defaultText;
  const d = row.default;
  if (d === undefined || row.arg === undefined) return undefined;
  const text = typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' ? String(d) : JSON.stringify(d);
  return row.unit === undefined ? text : `${text} ${row.unit}`;
}
