/**
 * What a trace format is to the readers: one {@link TraceFormatDefinition} per format, each in
 * its own file under `formats/`, listed once in `registry.ts`.
 *
 * @module
 */
import type { SpanRole } from '../span.js';
import type { SpanReadResult } from './span-fields.js';

/**
 * One trace format: how to recognise a JSON value of it, how to read it into spans, and the words
 * that messages and docs use for it. Detection, reading, tree errors, the "no recognised model
 * call" warning and the list of formats in `parl trace`'s help all read these fields; nothing else
 * names a format.
 */
export interface TraceFormatDefinition<Name extends string = string> {
  /** The `--trace-format` value, also each span's `format`. */
  readonly name: Name;
  /** The format in a list of formats (`parl trace`'s description, the docs): "LangSmith". */
  readonly title: string;
  /** One JSON value of it, after "not": "a LangSmith run". */
  readonly shape: string;
  /** What a value forced to this format must be, in the error for one that is not. */
  readonly expected: string;
  /**
   * True when `value` is of this format. Formats are tried in registry order; a format whose shape
   * overlaps a later one's excludes it here.
   */
  detect(value: Record<string, unknown>): boolean;
  /** Read one detected value into spans (or span errors); a value may hold none, one or many. */
  read(value: Record<string, unknown>, location: string): SpanReadResult[];
  /**
   * Keys of a wrapper object whose array holds values of this format (`{"data": [items]}`), read
   * element by element when the object itself is no format's.
   */
  readonly wrappers?: readonly string[];
  /** The field that holds a span's parent id, named in tree errors (missing parent, cycle). */
  readonly parentField: string;
  /** Each span shape that the reader counts as a model call (role `llm`), as a phrase for messages. */
  readonly modelCalls: readonly string[];
  /** Each span shape that the reader counts as a tool call (role `tool`), as a phrase for messages. */
  readonly toolCalls: readonly string[];
}

/**
 * The keys of a reader's role table that give `role`, in table order: message phrases are built
 * from the tables the readers use, so they cannot drift from them.
 *
 * @example
 * ```ts
 * keysWithRole({ chat: 'llm', execute_tool: 'tool', embeddings: 'other' }, 'llm'); // ['chat']
 * ```
 */
export function keysWithRole(table: Readonly<Record<string, SpanRole>>, role: SpanRole): string[] {
  return Object.keys(table).filter((key) => table[key] === role);
}

/**
 * Words joined as a list: `a`, `a or b`, `a, b or c`.
 *
 * @example
 * ```ts
 * orList(['chat', 'text_completion', 'generate_content']); // 'chat, text_completion or generate_content'
 * ```
 */
export function orList(words: readonly string[], last = 'or'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1] as string}`;
}
