/**
 * Reading a table out of an answer's text, WideSearch's way: the rows of a Markdown table, or
 * `a | b | c` lines. A first row whose cells are the table's column names (in any order) is a
 * header and says which cell is which column; otherwise cells are taken in the columns' order.
 * Separator lines (`|---|:--:|`) are skipped, as are lines with another number of cells.
 *
 * @module
 */
import { normaliseAnswer } from './normalise.js';

/** The cells of a `|`-separated line (outer pipes dropped, cells trimmed); undefined when the line has no `|`. */
function cellsOf(line: string): string[] | undefined {
  const t = line.trim();
  if (!t.includes('|')) return undefined;
  const inner = t.replace(/^\|/, '').replace(/\|$/, '');
  return inner.split('|').map((c) => c.trim().replace(/^\*\*(.*)\*\*$/, '$1'));
}

const SEPARATOR = /^:?-{2,}:?$/;

/**
 * The rows of `text` as column → cell, for a table of `columns`.
 *
 * @returns the rows in order (each with every column), and how many `|` lines were left out
 */
export function tableRowsIn(text: string, columns: readonly string[]): { rows: Record<string, string>[]; skipped: number } {
  const wanted = columns.map(normaliseAnswer);
  let order: number[] | undefined;
  const rows: Record<string, string>[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    const cells = cellsOf(line);
    if (cells === undefined) continue;
    if (cells.every((c) => SEPARATOR.test(c) || c === '')) continue;
    const names = cells.map(normaliseAnswer);
    if (order === undefined && rows.length === 0 && names.length === wanted.length && wanted.every((w) => names.includes(w))) {
      // A header: cell i holds the column named there.
      order = wanted.map((w) => names.indexOf(w));
      continue;
    }
    if (cells.length !== columns.length) {
      skipped++;
      continue;
    }
    const row: Record<string, string> = {};
    columns.forEach((column, i) => {
      row[column] = cells[order === undefined ? i : (order[i] as number)] as string;
    });
    rows.push(row);
  }
  return { rows, skipped };
}
