/**
 * The scorer names of spec §10.2 as text (`exact`, `includes`, `regex:PATTERN`, `number:TOL`,
 * `table`, `judge`, `module:PATH`) and their check: what `--scorer` and a task row's `scorer`
 * say. No dependency beyond core and `re2js` (a `regex:` pattern is compiled by the engine that
 * will match it), so that the option tables (and help) load nothing heavy.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { RE2JS } from 're2js';

/** The scorer kinds. */
export const SCORER_KINDS = ['exact', 'includes', 'regex', 'number', 'table', 'judge', 'module'] as const;

/** A scorer kind. */
export type ScorerKind = (typeof SCORER_KINDS)[number];

/** A scorer named by text, checked. */
export interface ScorerSpec {
  /** The text as given (the record's `score.scorer`). */
  readonly name: string;
  /** The kind. */
  readonly kind: ScorerKind;
  /** What follows the colon (`regex:`, `number:`, `module:`), else undefined. */
  readonly argument: string | undefined;
}

/** How the scorer names are written, for error lines and help. */
export const SCORER_SYNTAX = 'exact, includes, regex:PATTERN, number:TOL (TOL absolute, or TOL% relative), table, judge or module:PATH';

const WITH_ARGUMENT = new Set<ScorerKind>(['regex', 'number', 'module']);

/** A tolerance, `0.5` (absolute) or `2%` (relative); undefined when the text is not one. */
export function parseTolerance(text: string): { readonly value: number; readonly relative: boolean } | undefined {
  const m = /^\s*(\d+(?:\.\d*)?|\.\d+)\s*(%?)\s*$/.exec(text);
  if (m === null) return undefined;
  return { value: Number(m[1]), relative: m[2] === '%' };
}

/**
 * Compile a `regex:` pattern with RE2's engine (`re2js`), which matches in time linear in the
 * text: the answer is untrusted model output, so a pattern that needs backtracking (a
 * back-reference, a lookaround) is refused rather than run.
 *
 * @throws {@link @parl/core!ParlInputError} naming `field` for a pattern RE2 does not take
 */
export function compileLinear(pattern: string, field = '--scorer', text = `regex:${pattern}`, location?: string): RE2JS {
  try {
    return RE2JS.compile(pattern);
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new ParlInputError(field, text, `a regular expression RE2 matches in linear time, with no back-reference or lookaround (${reason})`, location);
  }
}

/**
 * Check a scorer name.
 *
 * @param text - the name (`number:0.5%`)
 * @param field - the flag or field it came from, for the error line (`--scorer`, `scorer`)
 * @param location - where it came from (`tasks.jsonl line 3`), if a row
 * @throws {@link @parl/core!ParlInputError} naming the field and the scorers there are
 */
export function parseScorerSpec(text: string, field = '--scorer', location?: string): ScorerSpec {
  const colon = text.indexOf(':');
  const head = colon < 0 ? text : text.slice(0, colon);
  const argument = colon < 0 ? undefined : text.slice(colon + 1);
  const kind = (SCORER_KINDS as readonly string[]).includes(head) ? (head as ScorerKind) : undefined;
  if (kind === undefined) throw new ParlInputError(field, text, `one of ${SCORER_SYNTAX}`, location);
  if (WITH_ARGUMENT.has(kind) !== (argument !== undefined) || argument === '') {
    throw new ParlInputError(field, text, WITH_ARGUMENT.has(kind) ? `${kind}:… with its argument (${SCORER_SYNTAX})` : `${kind} with no argument (${SCORER_SYNTAX})`, location);
  }
  if (kind === 'regex') compileLinear(argument as string, field, text, location);
  if (kind === 'number' && parseTolerance(argument as string) === undefined) {
    throw new ParlInputError(field, text, 'number:TOL with TOL a number ≥ 0, absolute (number:0.5) or relative (number:2%)', location);
  }
  return { name: text, kind, argument };
}
