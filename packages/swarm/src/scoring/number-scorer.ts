/**
 * `number:TOL` (spec §10.2): 1 when the last number in the answer is within TOL of an accepted
 * number (absolute; `TOL%` relative to the accepted number).
 *
 * @module
 */
import { acceptedTexts } from './accepted-answer.js';
import { numbersIn, withinTolerance } from './numbers.js';
import { parseTolerance } from './scorer-spec.js';
import type { Scorer } from './score.js';

/** The `number:TOL` scorer (TOL checked by `parseScorerSpec`). */
export function numberScorer(toleranceText: string): Scorer {
  const tolerance = parseTolerance(toleranceText) ?? { value: 0, relative: false };
  const name = `number:${toleranceText}`;
  return {
    name,
    score(answer, task) {
      const got = numbersIn(answer).at(-1);
      const accepted = acceptedTexts(task.answer).flatMap((a) => numbersIn(a).slice(-1));
      if (got === undefined) return { scorer: name, r_perf: 0, reason: 'no number in the answer' };
      const hit = accepted.find((want) => withinTolerance(got, want, tolerance));
      return { scorer: name, r_perf: hit === undefined ? 0 : 1, number: got, accepted };
    },
  };
}
