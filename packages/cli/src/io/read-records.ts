/**
 * Reading spec §5 records from JSON or JSONL, detected from the content.
 *
 * JSONL is streamed line by line with `readline`, so memory stays constant however long the
 * input is. JSON (an array of records, or one record, possibly spread over many lines) is read
 * whole, since it is one value.
 *
 * @module
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { ParlInputError } from '@parl/core';
import { CliError, describeFsError } from '../errors.js';

/** The two record formats: one JSON value, or one JSON object per line. */
export type RecordFormat = 'json' | 'jsonl';

/** One record as read, with where it came from (`line 17`, `record 3`). */
export interface SourcedRecord {
  /** The parsed JSON value (not validated yet). */
  readonly value: unknown;
  /** `line N` (1-based) for JSONL, `record N` (1-based) for a JSON array. */
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

function parseError(text: string, err: unknown, location: string): ParlInputError {
  const reason = err instanceof Error ? err.message : String(err);
  return new ParlInputError('record', text.length > 60 ? `${text.slice(0, 57)}...` : text, `valid JSON (${reason})`, location);
}

/**
 * Read records from a stream, detecting the format: when the first non-blank line is a complete
 * JSON value (and not the start of an array), the input is JSONL and is streamed; otherwise the
 * whole input is one JSON document, an array of records or a single record.
 *
 * @param input - a byte or text stream (a file, stdin)
 * @throws {@link @parl/core!ParlInputError} when a JSON document does not parse or is not an object or array
 *
 * @example
 * ```ts
 * for await (const item of readRecords(createReadStream('episodes.jsonl'))) {
 *   if (!isUnreadable(item)) console.log(item.location, item.value);
 * }
 * ```
 */
export async function* readRecords(input: NodeJS.ReadableStream): AsyncGenerator<RecordItem> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let mode: 'unknown' | RecordFormat = 'unknown';
  const documentLines: string[] = [];
  let lineNo = 0;
  for await (const raw of lines) {
    lineNo++;
    const line = lineNo === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (mode === 'json') {
      documentLines.push(line);
      continue;
    }
    const text = line.trim();
    if (text === '') {
      if (mode === 'unknown') documentLines.push(line);
      continue;
    }
    const location = `line ${lineNo}`;
    if (mode === 'unknown') {
      if (text.startsWith('[')) {
        mode = 'json';
        documentLines.push(line);
        continue;
      }
      let first: unknown;
      try {
        first = JSON.parse(text);
      } catch {
        mode = 'json';
        documentLines.push(line);
        continue;
      }
      mode = 'jsonl';
      documentLines.length = 0;
      yield { value: first, location, format: 'jsonl' };
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      yield { error: parseError(text, err, location), location, format: 'jsonl' };
      continue;
    }
    yield { value, location, format: 'jsonl' };
  }
  if (mode !== 'json') return;
  const document = documentLines.join('\n');
  let parsed: unknown;
  try {
    parsed = JSON.parse(document);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ParlInputError('input', document.trim().slice(0, 40), `JSON (an array of records or one record) or JSONL (one record per line); it does not parse: ${reason}`);
  }
  if (Array.isArray(parsed)) {
    for (let i = 0; i < parsed.length; i++) {
      yield { value: parsed[i], location: `record ${i + 1}`, format: 'json' };
    }
    return;
  }
  if (typeof parsed === 'object' && parsed !== null) {
    yield { value: parsed, location: 'record 1', format: 'json' };
    return;
  }
  throw new ParlInputError('input', parsed, 'a JSON array of records or one record object');
}

/**
 * Open the input: the file at `path` (checked first, so a missing file is one clear line) or
 * the given stdin.
 *
 * @throws {@link CliError} when the file is missing, unreadable or a directory
 */
export async function openInput(path: string | undefined, stdin: NodeJS.ReadableStream, flag = '--in'): Promise<NodeJS.ReadableStream> {
  if (path === undefined) return stdin;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (err) {
    throw new CliError(`cannot read ${flag} ${path}: ${describeFsError(err)}`);
  }
  return createReadStream(path);
}
