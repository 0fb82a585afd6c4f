/**
 * Whether sub-agents that ran one after another were independent, judged from captured content:
 * a later one whose input quotes an earlier one's output depended on it.
 *
 * The check indexes the earlier outputs' windows in a hash set and looks each later input's
 * windows up in it, so its work is linear in the content, not quadratic in the units (see
 * {@link independenceWork} for the bound).
 *
 * @module
 */
import type { CapturedContent } from './mapping.js';

/** `unknown` (content missing or too short to judge), `likely` (no later input quotes an earlier output) or `dependent`. */
export type Independence = 'unknown' | 'likely' | 'dependent';

/** Outputs shorter than this (after normalising) are too short to tell a quote from a coincidence. */
export const MIN_QUOTE_CHARS = 12;
/** Length of the pieces of an output looked for in a later input. */
export const QUOTE_WINDOW_CHARS = 24;
/** Outputs' windows are taken every this many characters (half a window), plus the last one. */
const STRIDE = QUOTE_WINDOW_CHARS >> 1;

/** Lower case, every run of characters other than letters and digits as one space (quotes and JSON escapes vanish). */
function normalise(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The pieces of a normalised output another text must contain to quote it: itself when short, else its windows. */
function piecesOf(out: string): string[] {
  if (out.length <= QUOTE_WINDOW_CHARS) return [out];
  const pieces: string[] = [];
  for (let i = 0; i + QUOTE_WINDOW_CHARS <= out.length; i += STRIDE) pieces.push(out.slice(i, i + QUOTE_WINDOW_CHARS));
  pieces.push(out.slice(out.length - QUOTE_WINDOW_CHARS));
  return pieces;
}

/**
 * The pieces of an output, one line at a time: the text of one message or one tool result (the
 * lines {@link contentText} joins) is compared on its own, so that no piece spans two of them.
 * Lines shorter than {@link MIN_QUOTE_CHARS} give none; undefined when no line is long enough to
 * judge.
 */
function outputPieces(output: string): string[] | undefined {
  const pieces: string[] = [];
  for (const line of output.split('\n')) {
    const out = normalise(line);
    if (out.length >= MIN_QUOTE_CHARS) pieces.push(...piecesOf(out));
  }
  return pieces.length === 0 ? undefined : pieces;
}

/**
 * True when `input` quotes `output`: a whole line of the normalised output when shorter than
 * {@link QUOTE_WINDOW_CHARS}, else any of its windows of that length (taken every half window).
 * Undefined when the output is too short to judge.
 */
export function quotes(output: string, input: string): boolean | undefined {
  const pieces = outputPieces(output);
  if (pieces === undefined) return undefined;
  const inp = normalise(input);
  return pieces.some((piece) => inp.includes(piece));
}

/** The verdict of {@link independenceWork} and the work it took. */
export interface IndependenceWork {
  /** The verdict, as {@link independenceOf} gives it. */
  readonly independence: Independence;
  /** Output pieces put in the index. */
  readonly indexed: number;
  /** Input substrings looked up in the index. */
  readonly lookups: number;
}

/** The base of the rolling hash (a large odd multiplier: arithmetic modulo 2^32). */
const HASH_BASE = 0x01000193;

/** The polynomial hash of `text[from, from + length)` modulo 2^32. */
function hashOf(text: string, from: number, length: number): number {
  let h = 0;
  for (let k = from; k < from + length; k++) h = (Math.imul(h, HASH_BASE) + text.charCodeAt(k)) >>> 0;
  return h;
}

/** HASH_BASE^(length − 1) modulo 2^32: the weight of the character leaving a rolling window. */
function leadingWeight(length: number): number {
  let w = 1;
  for (let k = 1; k < length; k++) w = Math.imul(w, HASH_BASE) >>> 0;
  return w;
}

/**
 * The pieces of earlier outputs, by length (a short output is one piece of its own length, 12..24
 * characters; a long one gives windows of 24), each under a hash of its characters, so that a
 * later input is scanned once per length present with a rolling hash.
 */
class QuoteIndex {
  private readonly byLength = new Map<number, Map<number, string[]>>();
  indexed = 0;
  lookups = 0;

  add(pieces: readonly string[]): void {
    for (const piece of pieces) {
      let table = this.byLength.get(piece.length);
      if (table === undefined) this.byLength.set(piece.length, (table = new Map()));
      const h = hashOf(piece, 0, piece.length);
      const bucket = table.get(h);
      if (bucket === undefined) table.set(h, [piece]);
      else if (!bucket.includes(piece)) bucket.push(piece);
      this.indexed++;
    }
  }

  /** True when some substring of `inp` is an indexed piece. */
  quotedIn(inp: string): boolean {
    for (const [length, table] of this.byLength) {
      if (inp.length < length) continue;
      const lead = leadingWeight(length);
      let h = hashOf(inp, 0, length);
      for (let i = 0; ; i++) {
        this.lookups++;
        const bucket = table.get(h);
        // A hash match is confirmed on the characters (different pieces may share a hash).
        if (bucket !== undefined && bucket.some((piece) => inp.startsWith(piece, i))) return true;
        if (i + length >= inp.length) break;
        h = (Math.imul((h - Math.imul(inp.charCodeAt(i), lead)) >>> 0, HASH_BASE) + inp.charCodeAt(i + length)) >>> 0;
      }
    }
    return false;
  }
}

/**
 * {@link independenceOf} with the work it did. With C the characters of captured content over
 * all units, the index holds at most C / 12 + units pieces and the inputs take at most
 * 13 × C lookups (one per position and per piece length present: 12 to 24 characters, the
 * windows being 24), each hashing at most 24 characters: linear in C, whatever the number of units.
 */
export function independenceWork(units: readonly (CapturedContent | undefined)[]): IndependenceWork {
  const index = new QuoteIndex();
  let judged = true;
  let dependent = false;
  for (let j = 0; j < units.length && !dependent; j++) {
    if (j > 0) {
      const input = units[j]?.input;
      if (input === undefined) judged = false;
      else if (index.quotedIn(normalise(input))) dependent = true;
    }
    // Unit j's output is compared with the inputs after it: the last unit's output never is.
    if (j === units.length - 1) break;
    const output = units[j]?.output;
    if (output === undefined) {
      judged = false;
      continue;
    }
    const pieces = outputPieces(output);
    if (pieces === undefined) judged = false;
    else index.add(pieces);
  }
  const independence: Independence = dependent ? 'dependent' : judged && units.length > 1 ? 'likely' : 'unknown';
  return { independence, indexed: index.indexed, lookups: index.lookups };
}

/**
 * The independence of units (sub-agents, or turns that did the work themselves) in the order
 * they ran: `dependent` when a later unit's input quotes an earlier unit's output, `likely` when
 * every later input and every earlier output is known and none quotes, else `unknown`.
 */
export function independenceOf(units: readonly (CapturedContent | undefined)[]): Independence {
  return independenceWork(units).independence;
}
