/**
 * What a reasoning parser is: a completion's decoded text in, its reasoning and the rest out, as
 * vLLM's reasoning parsers split them.
 *
 * @module
 */

/** A completion's text with its reasoning split off. */
export interface SplitReasoning {
  /** The reasoning, when the completion had any. */
  readonly reasoning: string | undefined;
  /** The rest: the answer and the tool calls. */
  readonly content: string;
}

/** A reasoning parser, one per format. */
export interface ReasoningParser {
  /** Split the reasoning off `text`. */
  split(text: string): SplitReasoning;
}
