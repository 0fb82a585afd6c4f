/**
 * Splitting the input into JSON values ("units") without loading it whole:
 * - **JSONL** (the first non-blank line is a complete JSON value, or the second is and the first
 *   is not a mere opening bracket — a broken first line is then reported as line 1): one unit per
 *   line, read line by line;
 * - **one JSON document** (anything else): parsed as a stream with `@streamparser/json`; a
 *   top-level array gives one unit per element, a top-level object gives one unit per element of
 *   its known span containers (`resourceSpans[*].scopeSpans[*].spans`, `data`, `runs`,
 *   `child_runs` of nothing else), and a small object that has none of them is one unit.
 *
 * @module
 */
import { JSONParser } from '@streamparser/json';
import { TraceInputError } from '../errors.js';
import { textChunks, type TraceInput } from './text-chunks.js';

/** One JSON value read from the input, with where it was read. */
export interface JsonUnit {
  /** The parsed value. */
  readonly value: unknown;
  /** `line 12` (JSONL) or `document item 40` (one JSON document). */
  readonly location: string;
}

/** A unit, or the reason a part of the input could not be read (bad line, truncated document). */
export type JsonUnitResult = JsonUnit | TraceInputError;

/** Span containers of a top-level object document whose elements are streamed one by one. */
export const DOCUMENT_CONTAINER_PATHS = [
  '$.resourceSpans.*.scopeSpans.*.spans.*',
  '$.resourceSpans.*.instrumentationLibrarySpans.*.spans.*',
  '$.data.*',
  '$.runs.*',
] as const;

/** A top-level object document without any container is parsed whole when at most this long. */
export const MAX_PLAIN_DOCUMENT_CHARS = 16 * 1024 * 1024;

function lineError(line: number, text: string, err: unknown): TraceInputError {
  const reason = err instanceof Error ? err.message : String(err);
  return new TraceInputError(`line ${line}`, text, `one complete JSON value per line (${reason}); a truncated file ends this way`, undefined);
}

/**
 * Read the input as JSON units (see the module comment for the two layouts). Lines or documents
 * that do not parse come back as {@link TraceInputError}s in place, so the caller decides to stop
 * or to skip; after a document error nothing more is read.
 */
export async function* jsonUnits(input: TraceInput): AsyncGenerator<JsonUnitResult> {
  const chunks = textChunks(input)[Symbol.asyncIterator]();
  let pending = '';
  let lineNo = 0;
  let decided = false;
  // The first non-blank line when it is not a complete JSON value: the layout is decided by the next one.
  let firstBad: { text: string; error: TraceInputError } | undefined;
  let documentHead: string | undefined;

  while (documentHead === undefined) {
    const next = await chunks.next();
    if (next.done) break;
    pending += next.value;
    let from = 0;
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      const line = pending.slice(from, nl);
      from = nl + 1;
      lineNo++;
      const result = lineUnit(line, lineNo);
      if (result !== undefined) {
        if (!decided) {
          if (firstBad === undefined && result instanceof TraceInputError) {
            firstBad = { text: line, error: result };
            nl = pending.indexOf('\n', from);
            continue;
          }
          if (firstBad !== undefined && (result instanceof TraceInputError || OPENING.test(firstBad.text))) {
            // Two lines that are not complete values, or an opening bracket: one JSON document.
            documentHead = `${firstBad.text}\n${line}\n${pending.slice(from)}`;
            break;
          }
          decided = true;
          // JSONL whose first line is broken: report it, go on line by line.
          if (firstBad !== undefined) yield firstBad.error;
        }
        yield result;
      }
      nl = pending.indexOf('\n', from);
    }
    pending = documentHead === undefined ? pending.slice(from) : '';
  }
  if (documentHead !== undefined) {
    yield* documentUnits(documentHead, chunks);
    return;
  }
  lineNo++;
  const last = lineUnit(pending, lineNo);
  if (!decided && firstBad !== undefined) {
    // Only one or two values in the whole input: a document unless the last line is a value.
    if (last === undefined || last instanceof TraceInputError || OPENING.test(firstBad.text)) {
      yield* documentUnits(`${firstBad.text}\n${pending}`, chunks);
      return;
    }
    yield firstBad.error;
  } else if (!decided && last instanceof TraceInputError) {
    yield* documentUnits(pending, chunks);
    return;
  }
  if (last !== undefined) yield last;
}

/** A first line that only opens a document (`[`, `{`, `{"resourceSpans": [`…) rather than a broken JSONL value. */
const OPENING = /^\s*(?:\[|\{)\s*(?:"[^"]*"\s*:\s*[[{]?\s*)?$/;

function lineUnit(raw: string, lineNo: number): JsonUnitResult | undefined {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.trim() === '') return undefined;
  try {
    return { value: JSON.parse(line) as unknown, location: `line ${lineNo}` };
  } catch (err) {
    return lineError(lineNo, line, err);
  }
}

async function* documentUnits(head: string, rest: AsyncIterator<string>): AsyncGenerator<JsonUnitResult> {
  const first = head.trimStart()[0];
  const isArray = first === '[';
  const parser = new JSONParser({
    paths: isArray ? ['$.*'] : [...DOCUMENT_CONTAINER_PATHS],
    keepStack: false,
  });
  const ready: JsonUnit[] = [];
  let item = 0;
  let emitted = false;
  let plain: string | undefined = isArray ? undefined : '';
  parser.onValue = ({ value }) => {
    item++;
    emitted = true;
    ready.push({ value, location: `document item ${item}` });
  };
  const docError = (err: unknown): TraceInputError =>
    new TraceInputError(
      'document',
      `${item} item(s) read`,
      `one complete JSON document (${err instanceof Error ? err.message : String(err)}); a truncated file ends this way`,
      undefined,
    );
  const feed = (text: string): TraceInputError | undefined => {
    if (plain !== undefined) plain = plain.length + text.length <= MAX_PLAIN_DOCUMENT_CHARS ? plain + text : undefined;
    try {
      parser.write(text);
      return undefined;
    } catch (err) {
      return docError(err);
    }
  };
  let failure = feed(head);
  yield* ready.splice(0);
  while (failure === undefined) {
    const next = await rest.next();
    if (next.done) break;
    failure = feed(next.value);
    yield* ready.splice(0);
  }
  if (failure === undefined) {
    try {
      if (!parser.isEnded) parser.end();
    } catch (err) {
      failure = docError(err);
    }
    yield* ready.splice(0);
  }
  if (failure !== undefined) {
    yield failure;
    return;
  }
  if (!isArray && !emitted) {
    if (plain === undefined) {
      yield new TraceInputError(
        'document',
        'an object over 16 MiB',
        `a JSON array, a document with "resourceSpans", "data" or "runs", or JSONL (one value per line) when this large`,
        undefined,
      );
      return;
    }
    yield { value: JSON.parse(plain) as unknown, location: 'document' };
  }
}
