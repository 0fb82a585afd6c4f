/**
 * Turning raw options into a typed config with {@link resolveOptions}, the one way every edge
 * reads options: command-line flags, HTTP query strings, config files and library calls. Unknown
 * names are named with the closest known one, every value is checked by its row's parser,
 * required rows must be there, and defaults fill the rest.
 *
 * @module
 */
import { ParlInputError } from '../errors.js';
import { suggestField } from '../field-hints.js';
import { optionRows, type OptionRow, type ResolvedOptions } from './option-table.js';

/**
 * Where raw options come from:
 *
 * - `flag`: command-line flags, keyed by flag name without dashes, each value its text (a switch
 *   reads `'true'`); errors name `--flag`.
 * - `query`: an HTTP query string, keyed by query name, each value one text; errors name
 *   `query.name`.
 * - `config`: a config file's parsed JSON, keyed by option key (`maxSubagents`); errors name the key.
 * - `library`: the options object of a function call, keyed by option key; errors name
 *   `options.key`.
 *
 * Values of a config file or a library call may be typed (a number, a switch's boolean, a list
 * as an array, a schedule as an object); each is turned into the text its row reads (numbers and
 * booleans as written, an array of scalars joined with commas, an object as JSON), so one parser
 * checks every edge the same way.
 */
export type OptionSource = 'flag' | 'query' | 'config' | 'library';

/** The sources whose raw options are keyed by option key rather than by flag or query name. */
function keyedByKey(by: OptionSource): boolean {
  return by === 'config' || by === 'library';
}

/**
 * The name an option goes by in `by`, or undefined when the option is not offered there.
 *
 * @param key - the row's config key (the name in a config file or a library call)
 */
export function optionName(row: OptionRow<unknown>, by: OptionSource, key?: string): string | undefined {
  if (by === 'flag') return row.flag;
  if (by === 'query') return row.query;
  return key;
}

/** How an error names the option `name` given in `by`: `--lambda1`, `query.lambda1`, `lambda1`, `options.lambda1`. */
export function optionField(name: string, by: OptionSource): string {
  switch (by) {
    case 'flag':
      return `--${name}`;
    case 'query':
      return `query.${name}`;
    case 'config':
      return name;
    case 'library':
      return `options.${name}`;
  }
}

/**
 * The text a row reads for a typed value of a config file or a library call, or undefined when it
 * has none (a repeatable row's list is one text per line, as the repeated flag gives it).
 */
function textOf(value: unknown, row: OptionRow<unknown>): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string' || typeof v === 'number') ? value.join(row.repeatable === true ? '\n' : ',') : undefined;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return undefined;
}

/** What a value of `by` must be when it is not one this source can give. */
function oneValue(by: OptionSource): string {
  if (by === 'query') return 'one text value (the parameter is given once)';
  if (by === 'flag') return 'one text value';
  return 'a text, number, switch, list or object';
}

/**
 * The typed config the raw options `raw` describe (see {@link OptionSource} for how each source
 * names them). Each value goes through its row's `parse`; an option not given takes its row's
 * default, or stays absent when it has none; a `required` row not given is an error, and so are a
 * row given without the row it `needs` and a row given with the row it `conflicts` with. `undefined`
 * entries count as not given. The result's type comes from the table ({@link ResolvedOptions}).
 *
 * @throws {@link ParlInputError} for a name no row has (suggesting the closest known one,
 *   `PARL_ERR_UNKNOWN_NAME`), a required option not given (`PARL_ERR_MISSING_FIELD`), a value
 *   that is not one text (a query parameter given twice), or a value its row rejects
 *
 * @example
 * ```ts
 * const table = defineOptionTable({
 *   maxSubagents: { flag: 'max-subagents', query: 'max-subagents', arg: 'n', parse: positiveDecimalOption, default: 100, help: 'saturation point of r_parallel' },
 * });
 * resolveOptions(table, { 'max-subagents': '20' }, 'flag'); // { "maxSubagents": 20 }
 * resolveOptions(table, {}, 'query'); // { "maxSubagents": 100 }
 * resolveOptions(table, { maxSubagents: 20 }, 'library').maxSubagents; // 20
 * resolveOptions(table, { 'max-subagent': '20' }, 'query');
 * // ParlInputError: query.max-subagent must be a known query parameter (did you mean max-subagents?), got "20"
 * resolveOptions(table, { maxSubagents: -1 }, 'config');
 * // ParlInputError: maxSubagents must be a decimal number > 0, got -1
 * ```
 */
export function resolveOptions<T extends object>(table: T, raw: Readonly<Record<string, unknown>>, by: OptionSource): ResolvedOptions<T> {
  const rows = optionRows(table);
  const byName = new Map<string, readonly [string, OptionRow<unknown>]>();
  for (const entry of rows) {
    const name = optionName(entry[1], by, entry[0]);
    if (name !== undefined) byName.set(name, entry);
  }
  for (const name of Object.keys(raw)) {
    if (raw[name] !== undefined && !byName.has(name)) throw unknownOption(name, raw[name], [...byName.keys()], by);
  }
  const config: Record<string, unknown> = {};
  for (const [key, row] of rows) {
    const name = optionName(row, by, key);
    const given = name === undefined ? undefined : raw[name];
    if (given === undefined) {
      if (row.required === true) throw new ParlInputError(optionField(name ?? key, by), undefined, 'given (the option is required)', undefined, 'PARL_ERR_MISSING_FIELD');
      if (row.default !== undefined) config[key] = row.default;
      continue;
    }
    const field = optionField(name as string, by);
    const text = keyedByKey(by) ? textOf(given, row) : typeof given === 'string' ? given : undefined;
    if (text === undefined) throw new ParlInputError(field, given, oneValue(by));
    config[key] = keyedByKey(by) && typeof given !== 'string' ? parseTyped(row, text, given, field) : row.parse(text, field);
  }
  for (const [key, row] of rows) {
    const name = optionName(row, by, key);
    if (name === undefined || raw[name] === undefined) continue;
    if (row.needs !== undefined) {
      const other = (table as Readonly<Record<string, OptionRow<unknown>>>)[row.needs];
      const otherName = other === undefined ? undefined : optionName(other, by, row.needs);
      if (otherName === undefined || raw[otherName] === undefined) {
        throw new ParlInputError(optionField(name, by), raw[name], `used with ${otherName === undefined ? row.needs : optionField(otherName, by)}`, undefined, 'PARL_ERR_CONFLICT');
      }
    }
    if (row.conflicts !== undefined) {
      const other = (table as Readonly<Record<string, OptionRow<unknown>>>)[row.conflicts];
      const otherName = other === undefined ? undefined : optionName(other, by, row.conflicts);
      if (otherName !== undefined && raw[otherName] !== undefined) {
        throw new ParlInputError(optionField(name, by), raw[name], `given without ${optionField(otherName, by)} (not both)`, undefined, 'PARL_ERR_CONFLICT');
      }
    }
  }
  return config as ResolvedOptions<T>;
}

/** A typed value through its row's parser; an error about the value as a whole names the value as given, not its text. */
function parseTyped(row: OptionRow<unknown>, text: string, given: unknown, field: string): unknown {
  try {
    return row.parse(text, field);
  } catch (err) {
    if (err instanceof ParlInputError && err.field === field) throw new ParlInputError(field, given, err.expected, err.location, err.code);
    throw err;
  }
}

/** The error for an option name no row has: the closest known name, or the list of known ones. */
function unknownOption(name: string, value: unknown, known: readonly string[], by: OptionSource): ParlInputError {
  const kind = by === 'flag' ? 'flag' : by === 'query' ? 'query parameter' : 'option';
  const prefix = by === 'flag' ? '--' : '';
  const suggestion = suggestField(name, known);
  const expected =
    suggestion !== undefined
      ? `a known ${kind} (did you mean ${prefix}${suggestion}?)`
      : known.length === 0
        ? `absent: no ${kind} is taken here`
        : `one of the known ${kind}s: ${known.map((k) => `${prefix}${k}`).join(', ')}`;
  return new ParlInputError(optionField(name, by), value, expected, undefined, 'PARL_ERR_UNKNOWN_NAME');
}
