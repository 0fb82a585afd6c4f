/**
 * The elements of a JSON array found by their bytes, without parsing the document: so that a
 * body of many records is read one record at a time (each element parsed by itself) instead of
 * being parsed whole into an object per record before the first is labelled.
 *
 * The scan follows strings (with their escapes) and brackets only; it does not check the elements
 * themselves, which `JSON.parse` of each element does. Anything the scan does not expect makes
 * it give up ({@link NotAnArrayError}), and the caller reads the body as before (parsed whole),
 * so a body that is not one well-formed array gets exactly the answer it got before.
 *
 * @module
 */

/** The scan gave up: the bytes are not one JSON array of elements as the scan reads them. */
export class NotAnArrayError extends Error {
  constructor() {
    super('not one JSON array');
    this.name = 'NotAnArrayError';
  }
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

function isSpace(byte: number | undefined): boolean {
  return byte === SPACE || byte === LF || byte === CR || byte === TAB;
}

function skipSpace(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && isSpace(bytes[at])) at++;
  return at;
}

/**
 * The byte range `[start, end)` of each element of the JSON array `bytes` holds, in order (an
 * element's range may include the white space around it). Lazy: each range is found when asked for.
 *
 * @throws {@link NotAnArrayError} when the bytes are not one array with elements separated by
 *   commas, nothing but white space after it (met when the scan gets there)
 */
export function* jsonArrayElements(bytes: Uint8Array): Generator<readonly [start: number, end: number]> {
  let at = skipSpace(bytes, 0);
  if (bytes[at] !== OPEN_ARRAY) throw new NotAnArrayError();
  at = skipSpace(bytes, at + 1);
  if (bytes[at] === CLOSE_ARRAY) {
    if (skipSpace(bytes, at + 1) !== bytes.length) throw new NotAnArrayError();
    return;
  }
  for (;;) {
    const start = at;
    let depth = 0;
    for (;;) {
      if (at >= bytes.length) throw new NotAnArrayError();
      const byte = bytes[at] as number;
      if (byte === QUOTE) {
        at++;
        while (at < bytes.length && bytes[at] !== QUOTE) at += bytes[at] === BACKSLASH ? 2 : 1;
        if (at >= bytes.length) throw new NotAnArrayError();
      } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        depth++;
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
        if (depth === 0) {
          if (byte === CLOSE_OBJECT) throw new NotAnArrayError();
          break;
        }
        depth--;
      } else if (byte === COMMA && depth === 0) {
        break;
      }
      at++;
    }
    if (skipSpace(bytes, start) === at) throw new NotAnArrayError();
    yield [start, at];
    if (bytes[at] === CLOSE_ARRAY) {
      if (skipSpace(bytes, at + 1) !== bytes.length) throw new NotAnArrayError();
      return;
    }
    at++;
  }
}

/** Whether `bytes` scan as one JSON array to the end (see {@link jsonArrayElements}); its elements are not parsed. */
export function scansAsJsonArray(bytes: Uint8Array): boolean {
  try {
    for (const _ of jsonArrayElements(bytes)) {
      // Walked to the end: every element found.
    }
    return true;
  } catch (err) {
    if (err instanceof NotAnArrayError) return false;
    throw err;
  }
}
