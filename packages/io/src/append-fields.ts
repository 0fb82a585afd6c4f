/**
 * The fast path of `parl reward` / `parl critical-steps`: a labelled JSONL record written as the
 * input line's own text with the computed fields appended, instead of `JSON.stringify` of the
 * whole merged record.
 *
 * "The same output" here means: `JSON.parse` of the line this returns equals `JSON.parse` of the
 * line the full path writes (`JSON.stringify(withLabelFields(record, fields))`) — the same fields,
 * the same values, in the same key order — and when the input line is compact JSON as
 * `JSON.stringify` writes it, the two lines are byte for byte the same (the computed numbers are
 * written by `JSON.stringify` in both). The record's own text is kept as it was: its spacing, its
 * number spellings (`1.0`, `1e3`, an id beyond 2^53 keeps all its digits) and its escapes.
 *
 * Where that cannot hold, the answer is `undefined` and the caller takes the full path:
 *
 * - a computed field is already in the record with another value (labelling again with other
 *   options: the full path overwrites it in place). With the same value — labelling a labelled
 *   record again (spec §5.1) — nothing is appended and the line comes back unchanged;
 * - an own `__proto__` key (written as a plain field by the full path's spread);
 * - a line with so many brackets that the record might be nested too deeply for `JSON.stringify`
 *   (the full path reports that record as bad; see {@link MAX_FAST_PATH_BRACKETS});
 * - a computed value that is not a number, a boolean or null (none is today).
 *
 * @module
 */

/**
 * A line with at least this many `[` and `{` in it takes the full path. The count bounds the
 * record's depth from above, and `JSON.stringify` writes records far deeper than this on every
 * supported Node, so a record the full path would refuse as "nested too deeply" is never passed
 * through by the fast path.
 */
export const MAX_FAST_PATH_BRACKETS = 1024;

const OPEN_BRACE = 0x7b;

/** True when `text` holds fewer than {@link MAX_FAST_PATH_BRACKETS} opening brackets. */
function fewBrackets(text: string): boolean {
  if (text.length < 2 * MAX_FAST_PATH_BRACKETS) return true;
  let opened = 0;
  for (let at = text.indexOf('['); at >= 0; at = text.indexOf('[', at + 1)) if (++opened >= MAX_FAST_PATH_BRACKETS) return false;
  for (let at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) if (++opened >= MAX_FAST_PATH_BRACKETS) return false;
  return true;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * What goes in place of the closing `}` of a record read from `text` (its whole line, trimmed, a
 * JSON object) and labelled with `fields`: the computed fields and the `}` (`,"k":v,…}`, with no
 * leading comma after an empty object), `''` when every computed field is already there with its
 * value (the line stays as it is), or `undefined` when only the full path gives the same record
 * (see the module comment). The computed values are written by one `JSON.stringify` of `fields`
 * (numbers, booleans and null, as the full path writes them; a value of another type takes the
 * full path), so the tail is ASCII.
 *
 * @param text - the input line, trimmed: the JSON text of `record`
 * @param record - `JSON.parse(text)`
 * @param fields - the computed fields, in the order the full path adds them (every value finite)
 *
 * @example
 * ```ts
 * labelFieldsTail('{"id":1}', { id: 1 }, { critical_steps: 3 }); // ',"critical_steps":3}'
 * ```
 */
export function labelFieldsTail(text: string, record: Readonly<Record<string, unknown>>, fields: Readonly<Record<string, unknown>>): string | undefined {
  if (text.charCodeAt(text.length - 1) !== 0x7d || text.charCodeAt(0) !== OPEN_BRACE) return undefined;
  if (hasOwn.call(record, '__proto__')) return undefined;
  /** Computed fields the record has already, with the same value: not written again. */
  let already: string[] | undefined;
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined) continue;
    // Numbers, booleans and null only: the tail is then ASCII, and JSON.stringify writes them as the full path does.
    if (typeof value !== 'number' && typeof value !== 'boolean' && value !== null) return undefined;
    if (hasOwn.call(record, key)) {
      // === rather than Object.is: the full path writes -0 as 0, so a stored 0 already says -0.
      if (record[key] !== value) return undefined;
      (already ??= []).push(key);
    }
  }
  if (!fewBrackets(text)) return undefined;
  let json = JSON.stringify(fields);
  if (already !== undefined) for (const key of already) json = withoutMember(json, key);
  if (json === '{}') return '';
  return hasOwnField(record) ? `,${json.slice(1)}` : json.slice(1);
}

/**
 * `json` (an object of numbers, booleans and null, as JSON.stringify writes it) without its
 * member `key`: its `"key":` cannot occur anywhere else (a value has no quotes), and the value
 * runs to the next comma or the closing brace.
 */
function withoutMember(json: string, key: string): string {
  const at = json.indexOf(`"${key}":`);
  const comma = json.indexOf(',', at);
  if (comma >= 0) return `${json.slice(0, at)}${json.slice(comma + 1)}`;
  // The last member: drop the comma before it too (none when it is the only one).
  return `${json.slice(0, at === 1 ? 1 : at - 1)}}`;
}

/** Whether `record` has a field of its own (an object with none, `{}`, takes no leading comma). */
function hasOwnField(record: Readonly<Record<string, unknown>>): boolean {
  for (const key in record) if (hasOwn.call(record, key)) return true;
  return false;
}

/**
 * The output line for a record read from `text` (its whole line, trimmed, a JSON object) and
 * labelled with `fields`, or `undefined` when only the full path gives the same record (see the
 * module comment): `text` with its closing brace replaced by `labelFieldsTail`.
 *
 * @param text - the input line, trimmed: the JSON text of `record`
 * @param record - `JSON.parse(text)`
 * @param fields - the computed fields, in the order the full path adds them (every value finite)
 *
 * @example
 * ```ts
 * appendLabelFields('{"id":1}', { id: 1 }, { critical_steps: 3 }); // '{"id":1,"critical_steps":3}'
 * ```
 */
export function appendLabelFields(text: string, record: Readonly<Record<string, unknown>>, fields: Readonly<Record<string, unknown>>): string | undefined {
  const tail = labelFieldsTail(text, record, fields);
  if (tail === undefined) return undefined;
  return tail === '' ? text : `${text.slice(0, -1)}${tail}`;
}
