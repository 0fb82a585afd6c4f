/**
 * The `none` reasoning parser: nothing is split off; the whole completion is content.
 *
 * @module
 */
import type { ReasoningParser } from './reasoning-parser.js';

/** The `none` parser. */
export const noneReasoningParser: ReasoningParser = {
  split: (text) => ({ reasoning: undefined, content: text }),
};
