/**
 * `regex:PATTERN` (spec §10.2): 1 when the pattern (a JavaScript regular expression, no flags)
 * matches the answer.
 *
 * @module
 */
import type { Scorer } from './score.js';

/** The `regex:PATTERN` scorer (the pattern checked by `parseScorerSpec`). */
export function regexScorer(pattern: string): Scorer {
  const re = new RegExp(pattern);
  const name = `regex:${pattern}`;
  return {
    name,
    score(answer) {
      const m = re.exec(answer);
      return { scorer: name, r_perf: m === null ? 0 : 1, ...(m === null ? {} : { matched: m[0] }) };
    },
  };
}
