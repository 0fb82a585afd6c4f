/**
 * The error a tool throws to give the model an `error: …` result with its own span error type.
 *
 * @module
 */

/** A tool's failure, returned to the model as `error: MESSAGE` (never thrown out of an episode). */
export class ToolCallError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_TOOL_CALL'] as const;
  /** The stable code: `PARL_ERR_TOOL_CALL` (match on this, never on the message). */
  readonly code = 'PARL_ERR_TOOL_CALL';
  /** The span's `error.type` (default `tool_error`). */
  readonly type: string;

  /**
   * @param message - what the model reads after `error: `
   * @param type - the span's `error.type`
   */
  constructor(message: string, type = 'tool_error') {
    super(message);
    this.name = 'ToolCallError';
    this.type = type;
  }
}
