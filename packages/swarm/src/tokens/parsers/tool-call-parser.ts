/**
 * What a tool-call parser is: the decoded text of a completion in, the answer text and the tool
 * calls out, as vLLM's tool parsers extract them.
 *
 * @module
 */

/** A tool call found in a completion (the shape the tool-call executor takes). */
export interface ParsedToolCall {
  /** The call id: the one the model wrote (Kimi), or `call_<turn>_<index>` for formats without ids. */
  readonly id: string;
  /** The tool name ('' when the call was too malformed to name one). */
  readonly name: string;
  /** The parsed arguments (the raw text when they were not JSON). */
  readonly input: unknown;
  /** Why the call is malformed (its error is returned to the model as the tool result), if it is. */
  readonly invalid: string | undefined;
  /** The arguments as the model wrote them. */
  readonly arguments: string;
}

/** A completion's text split into its answer part and its tool calls. */
export interface ParsedToolCalls {
  /** The text that is not a tool call (the orchestrator's answer when there are no calls). */
  readonly content: string;
  /** The tool calls, in order. */
  readonly calls: readonly ParsedToolCall[];
}

/** A tool-call parser, one per format. */
export interface ToolCallParser {
  /**
   * Split `text` (a completion, reasoning already removed) into content and tool calls.
   *
   * @param turn - the orchestrator call's index, for call ids of formats that write none
   */
  parse(text: string, turn: number): ParsedToolCalls;
}
