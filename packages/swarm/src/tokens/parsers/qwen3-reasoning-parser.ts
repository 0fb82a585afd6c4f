/**
 * The `qwen3` reasoning parser (vLLM's name): Qwen3 reasons inside `<think>…</think>` (the opening
 * tag may be in the prompt already); without `</think>` the whole text is content.
 *
 * @module
 */
import type { ReasoningParser } from './reasoning-parser.js';

const OPEN = '<think>';
const CLOSE = '</think>';

/** The `qwen3` parser. */
export const qwen3ReasoningParser: ReasoningParser = {
  split(text) {
    const end = text.indexOf(CLOSE);
    if (end < 0) return { reasoning: undefined, content: text };
    const open = text.indexOf(OPEN);
    const from = open >= 0 && open < end ? open + OPEN.length : 0;
    return { reasoning: text.slice(from, end), content: text.slice(end + CLOSE.length) };
  },
};
