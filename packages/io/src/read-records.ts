/**
 * Reading spec §5 records from JSON or JSONL, detected from the content, with memory bounded by
 * the largest record whatever the size of the input:
 *
 * - **JSONL** (the default): one record per line, lines split on LF only (see {@link LineReader}),
 *   each line parsed on its own, so a bad line — the first one included — is reported with its
 *   number and the others are read;
 * - **a JSON array** (the first non-blank character is `[`): streamed element by element with
 *   `@streamparser/json`, never held whole;
 * - **pretty-printed JSON objects** (the first non-blank line only opens an object, e.g. `{` or
 *   `{"id": 1,`, and the next one is not a complete value either): streamed value by value the
 *   same way, one record per top-level object.
 *
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { JSONParser } from '@streamparser/json';
import { ParlInputError } from '@parl/core';
import { ParlIoError, describeFsError } from './errors.js';
import { LineReader } from './input-lines.js';
import { unreadableLineError } from './internal/line-errors.js';

/** The two record formats: one JSON value, or one JSON object per line. */
export type RecordFormat = 'json' | 'jsonl';

/** One record as read, with where it came from (`line 17`, `record 3`). */
export interface SourcedRecord {
  /** The parsed JSON value (not validated yet). */
  readonly value: unknown;
  /** `line N` (1-based) for JSONL, `record N` (1-based) for a JSON document. */
  readonly location: string;
  /** The detected format of the input the record came from. */
  readonly format: RecordFormat;
}

/** A line that is not valid JSON: reported like a bad record, so `--on-error skip` can pass it. */
export interface UnreadableRecord {
  /** Why the line could not be read, located. */
  readonly error: ParlInputError;
  /** `line N`. */
  readonly location: string;
  /** Always `jsonl`: only a JSONL line can fail on its own. */
  readonly format: RecordFormat;
}

/** What {@link readRecords} yields. */
export type RecordItem = SourcedRecord | UnreadableRecord;

/** True for an item that could not be parsed. */
export function isUnreadable(item: RecordItem): item is UnreadableRecord {
  return 'error' in item;
}

/**
 * A first line that only opens a multi-line JSON object (`{`, `{"id": 1,`, `{"stages": [`): the
 * input is then pretty-printed JSON rather than JSONL with a broken first line.
 */
const OPENS_DOCUMENT = /^\{\s*$|^\{.*[,{[:]\s*$/;

const BRACKET = 0x5b;

/** How far {@link jsonlDecidedAtFirstLine} looks for the first record line. */
export const FIRST_LINE_PEEK_BYTES = 1 << 20;

/**
 * Whether {@link readRecords} would read this input as JSONL line by line from its very first
 * line, judged from the input's first bytes (`head`, from {@link LineReader.peekHead}): true when
 * the first non-blank line is a whole JSON value, or fails to parse without looking like the
 * opening of a pretty-printed object. False — "read it record by record" — for a JSON array, an
 * opening line, or when `head` ends before the first non-blank line does.
 */
export function jsonlDecidedAtFirstLine(head: Buffer, atEnd: boolean): boolean {
  let from = 0;
  for (;;) {
    const nl = head.indexOf(0x0a, from);
    if (nl < 0 && !atEnd) return false;
    const bytes = head.subarray(from, nl < 0 ? head.length : nl);
    if (!isUtf8(bytes)) return false;
    const text = bytes.toString('utf8').trim();
    if (text !== '') {
      if (text.charCodeAt(0) === BRACKET) return false;
      try {
        JSON.parse(text);
        return true;
      } catch {
        return !OPENS_DOCUMENT.test(text);
      }
    }
    if (nl < 0) return false;
    from = nl + 1;
  }
}

/** Options of {@link readRecords}. */
export interface ReadRecordsOptions {
  /** Called once, as soon as the format is known (before the first record; not at all for an input with no records but blanks). */
  readonly onFormat?: (format: RecordFormat) => void;
}

/**
 * Read records from a stream, detecting the format (see the module comment). Unparseable JSONL
 * lines are yielded in place as {@link UnreadableRecord}s.
 *
 * @param input - a byte or text stream (a file, stdin), or a line reader over one that has not been read from
 * @param options - {@link ReadRecordsOptions}
 * @throws {@link @parl/core!ParlInputError} when a JSON document does not parse (naming the record it stopped in)
 *
 * @example
 * ```ts
 * import { createReadStream, writeFileSync } from 'node:fs';
 * writeFileSync('episodes.jsonl', '{"num_subagents": 4, "r_perf": 1}\nnot json\n');
 * for await (const item of readRecords(createReadStream('episodes.jsonl'))) {
 *   if (!isUnreadable(item)) console.log(item.location, item.value);
 * }
 * ```
 */
export async function* readRecords(input: AsyncIterable<unknown> | LineReader, options: ReadRecordsOptions = {}): AsyncGenerator<RecordItem> {
  const reader = input instanceof LineReader ? input : new LineReader(input);
  if ((await reader.peekNonBlank()) === BRACKET) {
    options.onFormat?.('json');
    yield* documentRecords(reader, 'array');
    return;
  }
  // The first non-blank line when it failed to parse but may open a pretty-printed object: the
  // next non-blank line decides (a JSONL record parses alone, a line inside an object does not).
  let opening: { text: string; item: UnreadableRecord } | undefined;
  let decided = false;
  for (;;) {
    const line = await reader.nextLine();
    if (line === undefined) break;
    const text = line.text?.trim();
    if (text === '') continue;
    const item = parseLine(text, line.lineNo);
    if (!decided && opening !== undefined) {
      if (isUnreadable(item)) {
        options.onFormat?.('json');
        yield* documentRecords(reader, 'objects', `${opening.text}\n${line.text ?? ''}\n`);
        return;
      }
      yield opening.item;
      opening = undefined;
    } else if (!decided && isUnreadable(item) && text !== undefined && OPENS_DOCUMENT.test(text)) {
      opening = { text, item };
      continue;
    }
    if (!decided) options.onFormat?.('jsonl');
    decided = true;
    yield item;
  }
  if (opening !== undefined) {
    // The whole input is one line that opens an object and never closes it.
    options.onFormat?.('json');
    yield* documentRecords(reader, 'objects', `${opening.text}\n`);
  }
}

function parseLine(text: string | undefined, lineNo: number): RecordItem {
  const location = `line ${lineNo}`;
  try {
    if (text === undefined) throw new Error('not UTF-8');
    return { value: JSON.parse(text) as unknown, location, format: 'jsonl' };
  } catch (err) {
    return { error: unreadableLineError(text, err).at(location), location, format: 'jsonl' };
  }
}

/**
 * Stream a JSON document: the elements of one top-level array, or a sequence of top-level
 * objects. Each value is handed over as soon as it is complete and not kept afterwards.
 */
async function* documentRecords(reader: LineReader, shape: 'array' | 'objects', head = ''): AsyncGenerator<RecordItem> {
  const parser = new JSONParser(
    shape === 'array' ? { paths: ['$.*'], keepStack: false } : { paths: ['$'], keepStack: false, separator: '' },
  );
  const ready: unknown[] = [];
  parser.onValue = ({ value }) => {
    ready.push(value);
  };
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let count = 0;
  const failure = (err: unknown): ParlInputError => {
    const reason = err instanceof TypeError ? 'the bytes are not valid UTF-8' : err instanceof Error ? err.message : String(err);
    return new ParlInputError(
      'input',
      `${count} record(s) read`,
      `${shape === 'array' ? 'a JSON array of records' : 'JSON objects'} or JSONL (one record per line); it stops parsing: ${reason}`,
      `record ${count + 1}`,
    );
  };
  const feed = (text: string): void => {
    try {
      if (text !== '') parser.write(text);
    } catch (err) {
      throw failure(err);
    }
  };
  const drain = function* (): Generator<RecordItem> {
    for (const value of ready.splice(0)) {
      count++;
      yield { value, location: `record ${count}`, format: 'json' };
    }
  };
  feed(head);
  yield* drain();
  for await (const bytes of reader.rest()) {
    let text: string;
    try {
      text = decoder.decode(bytes, { stream: true });
    } catch (err) {
      throw failure(err);
    }
    feed(text);
    yield* drain();
  }
  try {
    feed(decoder.decode());
    if (!parser.isEnded) parser.end();
  } catch (err) {
    throw err instanceof ParlInputError ? err : failure(err);
  }
  yield* drain();
  if (shape === 'array' && count === 0 && !parser.isEnded) throw failure(new Error('the array is not closed'));
}

/**
 * Open the input: the file at `path` (checked first, so a missing file is one clear line) or
 * the given stdin.
 *
 * @throws {@link ParlIoError} when the file is missing, unreadable or a directory
 */
export async function openInput(path: string | undefined, stdin: NodeJS.ReadableStream, flag = '--in'): Promise<NodeJS.ReadableStream> {
  if (path === undefined) return stdin;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (err) {
    throw new ParlIoError(`cannot read ${flag} ${path}: ${describeFsError(err)}`);
  }
  // 1 MiB reads: a large file is read in a sixteenth of the calls of the default 64 KiB.
  return createReadStream(path, { highWaterMark: 1 << 20 });
}
