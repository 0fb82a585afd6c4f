/**
 * What a tool is to the runtime, whichever provider it came from (the suites' corpus, a module
 * of AI SDK tools, an MCP server, the orchestrator's own `create_subagent` / `assign_task`).
 *
 * @module
 */
import type { JSONSchema7 } from 'ai';
import type { OpenSpan } from '../telemetry/swarm-telemetry.js';
import type { Lease } from './semaphore.js';

/** A call's checked arguments, or the error text the model gets instead of a result. */
export type CheckedInput = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** What a tool's `run` gets besides its arguments. */
export interface ToolCallContext {
  /** The call id. */
  readonly callId: string;
  /** The call's `execute_tool` span (the parent of anything the tool starts, a sub-agent's spans included). */
  readonly span: OpenSpan;
  /** Aborted when the call timed out or the episode stopped. */
  readonly signal: AbortSignal;
  /** The place the call holds in its provider's concurrency bound, when it has one. */
  readonly lease: Lease | undefined;
}

/** One tool. */
export interface SwarmTool {
  /** Its name, unique over the providers of a run. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description: string;
  /** The JSON schema of its arguments object, as the model sees it. */
  readonly inputSchema: JSONSchema7;
  /** Check a call's arguments (before the call waits for a place or starts its span). */
  check(input: unknown): CheckedInput | PromiseLike<CheckedInput>;
  /**
   * Run the call. A string is the result as is; any other value is sent as JSON; a throw is the
   * tool's error, returned to the model as `error: MESSAGE`.
   */
  run(input: unknown, context: ToolCallContext): unknown;
}
