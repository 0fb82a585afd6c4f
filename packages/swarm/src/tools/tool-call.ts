/**
 * A tool call as a model made it: what the tool-call executor receives.
 *
 * @module
 */

/** One tool call of a model reply. */
export interface ToolCall {
  /** The call id. */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** The parsed arguments (or the raw text when they were not JSON). */
  readonly input: unknown;
  /** Why the SDK rejected the call (unknown tool, arguments not JSON or not matching the schema), if it did. */
  readonly invalid: string | undefined;
}
