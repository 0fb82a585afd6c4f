/**
 * Whether sub-agents that ran one after another were independent, judged from captured content:
 * a later one whose input quotes an earlier one's output depended on it.
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

/** Lower case, every run of characters other than letters and digits as one space (quotes and JSON escapes vanish). */
function normalise(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * True when `input` quotes `output`: the whole normalised output when shorter than
 * {@link QUOTE_WINDOW_CHARS}, else any of its windows of that length (taken every half window).
 * Undefined when the output is too short to judge.
 */
export function quotes(output: string, input: string): boolean | undefined {
  const out = normalise(output);
  if (out.length < MIN_QUOTE_CHARS) return undefined;
  const inp = normalise(input);
  if (out.length <= QUOTE_WINDOW_CHARS) return inp.includes(out);
  const stride = QUOTE_WINDOW_CHARS >> 1;
  for (let i = 0; i + QUOTE_WINDOW_CHARS <= out.length; i += stride) {
    if (inp.includes(out.slice(i, i + QUOTE_WINDOW_CHARS))) return true;
  }
  return inp.includes(out.slice(out.length - QUOTE_WINDOW_CHARS));
}

/**
 * The independence of units (sub-agents, or turns that did the work themselves) in the order
 * they ran: `dependent` when a later unit's input quotes an earlier unit's output, `likely` when
 * every later input and every earlier output is known and none quotes, else `unknown`.
 */
export function independenceOf(units: readonly (CapturedContent | undefined)[]): Independence {
  let judged = true;
  for (let j = 1; j < units.length; j++) {
    const input = units[j]?.input;
    for (let i = 0; i < j; i++) {
      const output = units[i]?.output;
      if (input === undefined || output === undefined) {
        judged = false;
        continue;
      }
      const q = quotes(output, input);
      if (q === true) return 'dependent';
      if (q === undefined) judged = false;
    }
  }
  return judged && units.length > 1 ? 'likely' : 'unknown';
}
