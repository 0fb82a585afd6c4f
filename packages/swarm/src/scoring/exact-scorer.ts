/**
 * `exact` (spec §10.2): 1 when the answer, normalised, equals an accepted answer normalised the
 * same way.
 *
 * @module
 */
import { acceptedTexts } from './accepted-answer.js';
import { normaliseAnswer } from './normalise.js';
import type { Scorer } from './score.js';

/** The `exact` scorer. */
export const exactScorer: Scorer = {
  name: 'exact',
  score(answer, task) {
    const got = normaliseAnswer(answer);
    const matched = acceptedTexts(task.answer).find((a) => normaliseAnswer(a) === got);
    return { scorer: 'exact', r_perf: matched === undefined ? 0 : 1, ...(matched === undefined ? {} : { matched }) };
  },
};
