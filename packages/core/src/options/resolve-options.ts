/**
 * Turning the texts of flags or query parameters into a typed config with
 * {@link resolveOptions}: unknown names are named with the closest known one, every value is
 * parsed by its row, and defaults fill the rest.
 *
 * @module
 */
import { ParlInputError } from '../errors.js';
import { suggestField } from '../field-hints.js';
import { optionRows, type OptionRow, type OptionTable } from './option-table.js';

/** Where option texts come from: command-line flags or an HTTP query string. */
export type OptionSource = 'flag' | 'query';

/** The name an option goes by in `by`, or undefined when the option is not offered there. */
export function optionName(row: OptionRow<unknown>, by: OptionSource): string | undefined {
  return by === 'flag' ? row.flag : row.query;
}

/** How an error names the option `name` given in `by`: `--lambda1`, `query.lambda1`. */
export function optionField(name: string, by: OptionSource): string {
  return by === 'flag' ? `--${name}` : `query.${name}`;
}

/**
 * The typed config the texts `raw` describe, keyed by flag names (`by: 'flag'`, without dashes)
 * or query names (`by: 'query'`). Each text goes through its row's `parse`; a switch reads
 * `'true'`; an option not given takes its row's default, or stays absent when it has none.
 * `undefined` entries count as not given.
 *
 * @throws {@link ParlInputError} for a name no row has (suggesting the closest known one), a
 *   value that is not one text (a query parameter given twice), or a text its row rejects
 *
 * @example
 * ```ts
 * const table = defineOptionTable<{ readonly maxSubagents?: number }>({
 *   maxSubagents: { flag: 'max-subagents', query: 'max-subagents', arg: 'n', parse: positiveDecimalOption, default: 100, help: 'saturation point of r_parallel' },
 * });
 * resolveOptions(table, { 'max-subagents': '20' }, 'flag'); // { maxSubagents: 20 }
 * resolveOptions(table, {}, 'query'); // { maxSubagents: 100 }
 * resolveOptions(table, { 'max-subagent': '20' }, 'query');
 * // ParlInputError: query.max-subagent must be a known query parameter (did you mean max-subagents?), got "20"
 * ```
 */
export function resolveOptions<C>(table: OptionTable<C>, raw: Readonly<Record<string, unknown>>, by: OptionSource): C {
  const rows = optionRows(table);
  const byName = new Map<string, readonly [string, OptionRow<unknown>]>();
  for (const entry of rows) {
    const name = optionName(entry[1], by);
    if (name !== undefined) byName.set(name, entry);
  }
  for (const name of Object.keys(raw)) {
    if (raw[name] !== undefined && !byName.has(name)) throw unknownOption(name, raw[name], [...byName.keys()], by);
  }
  const config: Record<string, unknown> = {};
  for (const [key, row] of rows) {
    const name = optionName(row, by);
    const given = name === undefined ? undefined : raw[name];
    if (given === undefined) {
      if (row.default !== undefined) config[key] = row.default;
      continue;
    }
    const field = optionField(name as string, by);
    if (typeof given !== 'string') throw new ParlInputError(field, given, by === 'query' ? 'one text value (the parameter is given once)' : 'one text value');
    config[key] = row.parse(given, field);
  }
  return config as C;
}

/** The error for an option name no row has: the closest known name, or the list of known ones. */
function unknownOption(name: string, value: unknown, known: readonly string[], by: OptionSource): ParlInputError {
  const kind = by === 'flag' ? 'flag' : 'query parameter';
  const suggestion = suggestField(name, known);
  const expected =
    suggestion !== undefined
      ? `a known ${kind} (did you mean ${by === 'flag' ? '--' : ''}${suggestion}?)`
      : known.length === 0
        ? `absent: no ${kind} is taken here`
        : `one of the known ${kind}s: ${known.map((k) => (by === 'flag' ? `--${k}` : k)).join(', ')}`;
  return new ParlInputError(optionField(name, by), value, expected, undefined, 'PARL_ERR_UNKNOWN_NAME');
}
