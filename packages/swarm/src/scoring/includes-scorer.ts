/**
 * `includes` (spec §10.2): 1 when a normalised accepted answer occurs in the normalised answer.
 *
 * @module
 */
import { acceptedTexts } from './accepted-answer.js';
import { normaliseAnswer } from './normalise.js';
import type { Scorer } from './score.js';

/** The `includes` scorer. */
export const includesScorer: Scorer = {
  name: 'includes',
  score(answer, task) {
    const got = ` ${normaliseAnswer(answer)} `;
    const matched = acceptedTexts(task.answer).find((a) => {
      const want = normaliseAnswer(a);
      return want !== '' && got.includes(want);
    });
    return { scorer: 'includes', r_perf: matched === undefined ? 0 : 1, ...(matched === undefined ? {} : { matched }) };
  },
};
