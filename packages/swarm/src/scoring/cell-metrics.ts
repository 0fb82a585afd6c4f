/**
 * How a table's cells are compared, per column (spec §10.1 `metrics`; WideSearch's
 * `exact_match`, `number_near`, `date_near`, `llm_judge`): `exact` (normalised text),
 * `number:TOL` (the first number of each cell, TOL absolute or `TOL%` relative), `date:DAYS`
 * (dates at most DAYS days apart) and `judge` (the LLM judge, on the cell).
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { JudgeClient } from './judge-client.js';
import { grade } from './judge-scorer.js';
import { normaliseAnswer } from './normalise.js';
import { numbersIn, withinTolerance } from './numbers.js';
import { parseTolerance } from './scorer-spec.js';

/** How column metrics are written, for error lines. */
export const METRIC_SYNTAX = 'exact, number:TOL (TOL absolute or TOL%), date:DAYS or judge';

/** A column's comparison of one predicted cell with the accepted one. */
export type CellMatch = (got: string, want: string, column: string) => Promise<boolean> | boolean;

/**
 * Check a column metric.
 *
 * @throws {@link @parl/core!ParlInputError} naming `field` for a metric that is none of {@link METRIC_SYNTAX}
 */
export function checkMetric(text: unknown, field: string, location?: string): string {
  if (typeof text === 'string') {
    if (text === 'exact' || text === 'judge') return text;
    if (text.startsWith('number:') && parseTolerance(text.slice(7)) !== undefined) return text;
    if (text.startsWith('date:') && parseTolerance(text.slice(5))?.relative === false) return text;
  }
  throw new ParlInputError(field, text, `one of ${METRIC_SYNTAX}`, location);
}

function dayOf(text: string): number | undefined {
  const ms = Date.parse(text.trim());
  return Number.isNaN(ms) ? undefined : ms / 86_400_000;
}

/** What a table's `judge` cells cost: the judge's calls and their tokens, and the cells it never graded. */
export interface JudgeTally {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  ungraded: number;
}

/**
 * The comparison of a (checked) metric.
 *
 * @param judge - the judge, for `judge` columns (a `judge` column without one compares nothing: the run checks before it starts)
 * @param grading - where a `judge` column counts its calls (`tally`), the task graded (`taskId`,
 *   named when the judge cannot be reached: a `SwarmScoreError`) and the episode's `signal`, which
 *   aborts the judge's requests when the episode is cancelled
 */
export function cellMatch(metric: string, judge: JudgeClient | undefined, grading: { readonly tally?: JudgeTally; readonly taskId?: string; readonly signal?: AbortSignal | undefined } = {}): CellMatch {
  const { tally, taskId = 'task', signal } = grading;
  if (metric.startsWith('number:')) {
    const tolerance = parseTolerance(metric.slice(7)) ?? { value: 0, relative: false };
    return (got, want) => {
      const [g] = numbersIn(got);
      const [w] = numbersIn(want);
      return g !== undefined && w !== undefined && withinTolerance(g, w, tolerance);
    };
  }
  if (metric.startsWith('date:')) {
    const days = Number(metric.slice(5));
    return (got, want) => {
      const g = dayOf(got);
      const w = dayOf(want);
      return g !== undefined && w !== undefined ? Math.abs(g - w) <= days : normaliseAnswer(got) === normaliseAnswer(want);
    };
  }
  if (metric === 'judge') {
    return async (got, want, column) => {
      if (normaliseAnswer(got) === normaliseAnswer(want)) return true;
      if (judge === undefined) return false;
      const outcome = await grade(judge, `The value of the column "${column}" of a table row.`, got, want, taskId, signal);
      if (tally !== undefined) {
        tally.calls += outcome.attempts;
        tally.input_tokens += outcome.usage.input_tokens;
        tally.output_tokens += outcome.usage.output_tokens;
        if (outcome.verdict === undefined) tally.ungraded++;
      }
      return outcome.verdict?.correct === 'yes';
    };
  }
  return (got, want) => normaliseAnswer(got) === normaliseAnswer(want);
}
