/**
 * The docs' option tables, rendered from an option table so that they cannot drift from the code.
 *
 * @module
 */
import { defaultOf, optionRows, type OptionRow } from './option-table.js';

/** A table cell: pipes escaped, line breaks folded, so one row stays one Markdown line. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/**
 * Which name a docs table lists: the flag, the query parameter, or the config key (for a
 * library's options object).
 */
export type OptionDocsColumn = 'flag' | 'query' | 'key';

/** How a row's name and value look in the docs: `` `--budget K` ``, `` `budget=K` ``, `` `--strict` ``, `` `budget` ``. */
function usage(name: string, row: OptionRow<unknown>, by: OptionDocsColumn): string {
  if (by === 'key') return `\`${name}\``;
  if (by === 'flag') return row.arg === undefined ? `\`--${name}\`` : `\`--${name} ${row.arg}\``;
  return row.arg === undefined ? `\`${name}=true\`` : `\`${name}=${row.arg}\``;
}

/**
 * A Markdown table of the options offered in `by` (flags or query parameters; or every option by
 * its config key): name and value, default, and what it does, with the choices when the option has
 * a fixed set. Options not offered in `by` are left out.
 *
 * @example
 * ```ts
 * const table = defineOptionTable({
 *   budget: { flag: 'budget', query: 'budget', arg: 'K', parse: nonNegativeDecimalOption, help: 'critical-step budget' },
 * });
 * optionsMarkdown(table, 'flag');
 * // | flag | default | what it does |
 * // | --- | --- | --- |
 * // | `--budget K` | — | critical-step budget |
 * ```
 */
export function optionsMarkdown<T extends object>(table: T, by: OptionDocsColumn): string {
  const lines = [`| ${by === 'flag' ? 'flag' : by === 'query' ? 'parameter' : 'option'} | default | what it does |`, '| --- | --- | --- |'];
  for (const [key, row] of optionRows(table)) {
    const name = by === 'key' ? key : by === 'flag' ? row.flag : row.query;
    if (name === undefined) continue;
    const shown = defaultOf(row);
    const choices = row.choices === undefined ? '' : ` (one of ${row.choices.map((c) => `\`${c}\``).join(', ')})`;
    lines.push(`| ${usage(name, row, by)} | ${shown === undefined ? '—' : cell(`\`${shown}\``)} | ${cell(row.help)}${choices} |`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `text` with the part between `<!-- options: NAME -->` and `<!-- /options: NAME -->` replaced by
 * `content`, or undefined when the markers are missing (so a docs script can say which).
 */
export function replaceBetweenMarkers(text: string, name: string, content: string): string | undefined {
  const open = `<!-- options: ${name} -->`;
  const close = `<!-- /options: ${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) return undefined;
  return `${text.slice(0, start + open.length)}\n${content}${text.slice(end)}`;
}
