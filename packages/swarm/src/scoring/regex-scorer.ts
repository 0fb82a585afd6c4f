/**
 * `regex:PATTERN` (spec §10.2): 1 when the pattern matches the answer. The pattern is RE2's
 * syntax, matched by `re2js` in time linear in the answer (the answer is untrusted model output:
 * a backtracking engine can be made to run for hours by `^(a+)+$`); a pattern that needs
 * backtracking is refused when the scorer is checked.
 *
 * @module
 */
import type { Scorer } from './score.js';
import { compileLinear } from './scorer-spec.js';

/** The `regex:PATTERN` scorer (the pattern checked by `parseScorerSpec`). */
export function regexScorer(pattern: string): Scorer {
  const re = compileLinear(pattern);
  const name = `regex:${pattern}`;
  return {
    name,
    score(answer) {
      const m = re.matcher(answer);
      const found = m.find();
      return { scorer: name, r_perf: found ? 1 : 0, ...(found ? { matched: m.group() ?? '' } : {}) };
    },
  };
}
