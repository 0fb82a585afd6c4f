/**
 * The one tool-call executor (spec §10.3): every tool call of every agent — the orchestrator's
 * `create_subagent` / `assign_task`, the corpus tools, a module's tools, an MCP server's — runs
 * here. It looks the tool up by name, checks the arguments, waits for a place in the provider's
 * concurrency bound, runs the call under the run's tool timeout (which counts the wait for a
 * place) and returns the result the model reads. A tool's error, an argument that fails its
 * schema, an unknown tool or a call past the timeout is returned as `error: …` and counted;
 * nothing a tool does ends the episode. A call cut by the timeout or the episode's stop keeps its
 * place until the tool settles, so no more than the bound ever run at once. Each call is one
 * `execute_tool` span.
 *
 * @module
 */
import type { OpenSpan, SwarmTelemetry } from '../telemetry/swarm-telemetry.js';
import { CallDeadline } from './call-deadline.js';
import { oneLine } from './one-line.js';
import type { Lease } from './semaphore.js';
import type { CheckedInput, SwarmTool } from './swarm-tool.js';
import type { ToolCall } from './tool-call.js';
import { ToolCallError } from './tool-call-error.js';
import { toolNamed, type Toolbox } from './toolbox.js';

/** The default per-call tool timeout: 60 s. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** A call's result, as the model reads it. */
export interface ToolResult {
  /** The call id. */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** The result text (`error: …` for a failure). */
  readonly text: string;
  /** Whether the call failed (counted in `tool_errors`). */
  readonly error: boolean;
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function inputText(call: ToolCall): string {
  return typeof call.input === 'string' ? call.input : JSON.stringify(call.input) ?? '';
}

/** Runs the tool calls of one episode and counts their errors. */
export class ToolExecutor {
  private errors = 0;
  private calls = 0;

  /**
   * @param telemetry - the episode's spans
   * @param timeoutMs - the per-call timeout of timed providers' tools
   */
  constructor(
    private readonly telemetry: SwarmTelemetry,
    private readonly timeoutMs: number = DEFAULT_TOOL_TIMEOUT_MS,
  ) {}

  /** Calls that failed so far (the record's `tool_errors`). */
  get toolErrors(): number {
    return this.errors;
  }

  /** Calls executed so far. */
  get toolCalls(): number {
    return this.calls;
  }

  /**
   * Execute one call with the tools of `box`, under `parent`'s span; `signal` is the episode's.
   * Never throws for anything the tool or the model did.
   */
  async execute(call: ToolCall, box: Toolbox, parent: OpenSpan, signal: AbortSignal): Promise<ToolResult> {
    this.calls++;
    if (call.invalid !== undefined) return this.instant(call, parent, `error: ${call.invalid}`);
    const entry = toolNamed(box, call.name);
    if (entry === undefined) return this.instant(call, parent, `error: no tool named ${JSON.stringify(call.name)}`);
    let checked: CheckedInput;
    try {
      const pending = entry.tool.check(call.input);
      checked = isPromiseLike(pending) ? await pending : pending;
    } catch (err) {
      return this.instant(call, parent, `error: ${call.name}'s arguments could not be checked: ${oneLine(err instanceof Error ? err.message : String(err))}`);
    }
    if (!checked.ok) return this.instant(call, parent, checked.error);
    // A timed call's timeout runs from here: its wait for a place counts toward it, and the episode's
    // stop ends the wait. (An untimed call, `assign_task`, waits for its place in the pool as long as it takes.)
    const deadline = entry.provider.timed === false ? undefined : new CallDeadline(this.timeoutMs, signal);
    const limiter = entry.provider.limiter;
    let lease: Lease | undefined;
    if (limiter !== undefined) {
      try {
        lease = await limiter.acquire(deadline?.signal);
      } catch {
        deadline?.clear();
        return deadline?.timedOut === true
          ? this.instant(call, parent, this.timeoutText(call), 'timeout')
          : this.instant(call, parent, 'error: the episode stopped before the tool answered', 'aborted');
      }
    }
    return this.run(call, entry.tool, checked.value, parent, deadline === undefined ? () => signal : () => deadline.signal, deadline, lease);
  }

  private timeoutText(call: ToolCall): string {
    return `error: ${call.name} gave no result within ${this.timeoutMs} ms (the tool timeout)`;
  }

  /**
   * Run the call holding `lease`. A call cut by its deadline (the timeout, or the episode's stop)
   * is answered at once, but keeps its place until the tool itself settles: a tool that ignores
   * the abort still counts against its provider's bound.
   */
  private async run(call: ToolCall, tool: SwarmTool, input: unknown, parent: OpenSpan, signal: () => AbortSignal, deadline: CallDeadline | undefined, lease: Lease | undefined): Promise<ToolResult> {
    const span = this.telemetry.tool(call.name, call.id, () => inputText(call), parent, this.telemetry.now());
    let text: string;
    let errorType: string | undefined;
    let running: PromiseLike<unknown> | undefined;
    try {
      // The call's signal is made only if the tool reads it.
      const result = tool.run(input, { callId: call.id, span, get signal() { return signal(); }, lease });
      if (isPromiseLike(result)) running = result;
      text = textOf(running === undefined ? result : deadline === undefined ? await running : await Promise.race([running, deadline.cut]));
      running = undefined;
    } catch (err) {
      ({ text, errorType } = deadline?.aborted !== true
        ? this.failure(call, err)
        : deadline.timedOut
          ? { text: this.timeoutText(call), errorType: 'timeout' }
          : { text: 'error: the episode stopped before the tool answered', errorType: 'aborted' });
    } finally {
      deadline?.clear();
      // Cut before the tool settled: its place is given back when it does.
      if (running !== undefined && lease !== undefined) {
        const held = lease;
        Promise.resolve(running).then(() => held.release(), () => held.release());
      } else lease?.release();
    }
    if (errorType === undefined && text.startsWith('error: ')) errorType = 'tool_error';
    if (errorType !== undefined) this.errors++;
    this.telemetry.end(span, this.telemetry.now(), errorType === undefined ? undefined : { type: errorType, message: text }, { 'gen_ai.tool.call.result': text });
    return { id: call.id, name: call.name, text, error: errorType !== undefined };
  }

  private failure(call: ToolCall, err: unknown): { text: string; errorType: string } {
    if (err instanceof ToolCallError) return { text: `error: ${err.message}`, errorType: err.type };
    const message = err instanceof Error ? err.message || err.name : String(err);
    return { text: `error: ${call.name} failed: ${oneLine(message)}`, errorType: 'tool_error' };
  }

  /** A call whose result is known before it runs (a rejected call, or one that got no place in time): its span opens and ends at once. */
  private instant(call: ToolCall, parent: OpenSpan, text: string, type = 'tool_error'): ToolResult {
    const span = this.telemetry.tool(call.name, call.id, () => inputText(call), parent, this.telemetry.now());
    this.errors++;
    this.telemetry.end(span, this.telemetry.now(), { type, message: text }, { 'gen_ai.tool.call.result': text });
    return { id: call.id, name: call.name, text, error: true };
  }
}
