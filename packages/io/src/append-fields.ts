/**
 * The fast path of `parl reward` / `parl critical-steps`: a labelled JSONL record written as the
 * input line's own text with the computed fields appended, instead of `JSON.stringify` of the
 * whole merged record.
 *
 * "The same output" here means: `JSON.parse` of the line this returns equals `JSON.parse` of the
 * line the full path writes (`JSON.stringify(withLabelFields(record, fields))`) — the same fields,
 * the same values, in the same key order — and when the input line is compact JSON as
 * `JSON.stringify` writes it, the two lines are byte for byte the same (the computed numbers are
 * written as `JSON.stringify` writes them in both: see `jsonScalarText`). The record's own text
 * is kept as it was: its spacing, its number spellings (`1.0`, `1e3`, an id beyond 2^53 keeps all
 * its digits) and its escapes.
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
import { jsonScalarText, memberPrefix, type JsonScalar, type MemberPrefix } from './internal/json-member-text.js';

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
 * What follows a record's own text on the fast path: `unchanged` — every computed field is in the
 * record already, with its value (the line is written as it is); `members` — the computed fields
 * the record lacks replace its closing brace, after a comma; `first-members` — the same for a
 * record with no field of its own (`{}`), with no leading comma.
 */
export type LabelFieldsPlan = 'unchanged' | 'members' | 'first-members';

/** Where {@link writeLabelFieldsTail} writes: members, then a closing brace. */
export interface LabelTailSink {
  /** Append a member: its prefix (`,"key":`) and its value's text (ASCII). */
  writeMember(prefix: MemberPrefix, value: string): void;
  /** Append `text`, known to be ASCII. */
  writeAscii(text: string): void;
}

/**
 * Whether a record read from `text` (its whole line, trimmed, a JSON object) and labelled with
 * `fields` can take the fast path, and how (see {@link LabelFieldsPlan}); `undefined` when only
 * the full path gives the same record (see the module comment).
 *
 * @param text - the input line, trimmed: the JSON text of `record`
 * @param record - `JSON.parse(text)`
 * @param fields - the computed fields, in the order the full path adds them (every value finite)
 *
 * @example
 * ```ts
 * labelFieldsPlan('{"id":1}', { id: 1 }, { critical_steps: 3 }); // 'members'
 * ```
 */
export function labelFieldsPlan(text: string, record: Readonly<Record<string, unknown>>, fields: Readonly<Record<string, unknown>>): LabelFieldsPlan | undefined {
  if (text.charCodeAt(text.length - 1) !== 0x7d || text.charCodeAt(0) !== OPEN_BRACE) return undefined;
  if (hasOwn.call(record, '__proto__')) return undefined;
  let appended = false;
  for (const key in fields) {
    if (!hasOwn.call(fields, key)) continue;
    const value = fields[key];
    if (value === undefined) continue;
    // Numbers, booleans and null only: the tail is then ASCII, and written as the full path writes them.
    if (typeof value !== 'number' && typeof value !== 'boolean' && value !== null) return undefined;
    if (hasOwn.call(record, key)) {
      // === rather than Object.is: the full path writes -0 as 0, so a stored 0 already says -0.
      if (record[key] !== value) return undefined;
    } else {
      appended = true;
    }
  }
  if (!fewBrackets(text)) return undefined;
  if (!appended) return 'unchanged';
  return hasOwnField(record) ? 'members' : 'first-members';
}

/**
 * Write what goes in place of a record's closing `}` under `plan` (from {@link labelFieldsPlan}):
 * the members `JSON.stringify(fields)` would write, less those the record has already, then `}`.
 * Each piece is written as it is — a member's `,"key":` (quoted once per key) and its value's text
 * (`jsonScalarText`, the text JSON.stringify gives) — with no object serialised: a sink that
 * writes bytes (the labeller's output buffer) builds no string of the tail either.
 *
 * @param sink - where the text goes
 * @param record - the record (its own fields are not written again)
 * @param fields - the computed fields, checked by {@link labelFieldsPlan}
 * @param plan - `members` or `first-members`
 */
export function writeLabelFieldsTail(sink: LabelTailSink, record: Readonly<Record<string, unknown>>, fields: Readonly<Record<string, unknown>>, plan: 'members' | 'first-members'): void {
  let first = plan === 'first-members';
  for (const key in fields) {
    if (!hasOwn.call(fields, key)) continue;
    const value = fields[key];
    if (value === undefined || hasOwn.call(record, key)) continue;
    sink.writeMember(memberPrefix(key, first), jsonScalarText(value as JsonScalar));
    first = false;
  }
  sink.writeAscii('}');
}

/** Whether `record` has a field of its own (an object with none, `{}`, takes no leading comma). */
function hasOwnField(record: Readonly<Record<string, unknown>>): boolean {
  for (const key in record) if (hasOwn.call(record, key)) return true;
  return false;
}

/** A {@link LabelTailSink} that joins the pieces into one string. */
class StringSink implements LabelTailSink {
  /** The text written so far. */
  text = '';

  writeMember(prefix: MemberPrefix, value: string): void {
    this.text += prefix.text + value;
  }

  writeAscii(text: string): void {
    this.text += text;
  }
}

/**
 * What goes in place of the closing `}` of a record read from `text` (its whole line, trimmed, a
 * JSON object) and labelled with `fields`: the computed fields and the `}` (`,"k":v,…}`, with no
 * leading comma after an empty object), `''` when every computed field is already there with its
 * value (the line stays as it is), or `undefined` when only the full path gives the same record
 * (see the module comment). The computed values are numbers, booleans and null, each written as
 * `JSON.stringify` writes it (a value of another type takes the full path), so the tail is ASCII.
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
  const plan = labelFieldsPlan(text, record, fields);
  if (plan === undefined) return undefined;
  if (plan === 'unchanged') return '';
  const sink = new StringSink();
  writeLabelFieldsTail(sink, record, fields, plan);
  return sink.text;
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
