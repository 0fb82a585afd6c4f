/**
 * Where tools come from: one interface for the suites' corpus, a module of AI SDK tools, an MCP
 * server and the orchestrator's own tools. A provider's tools are listed once, when it is made.
 *
 * @module
 */
import type { SwarmTool } from './swarm-tool.js';
import type { Lease } from './semaphore.js';

/** Tool calls running at once per tools module or MCP server, unless told otherwise (`--tool-concurrency`). */
export const DEFAULT_TOOL_CONCURRENCY = 16;

/** Bounds how many calls run at once (a `Semaphore`, or the episode's sub-agent pool). */
export interface CallLimiter {
  /** Wait for a place; a wait that `signal` aborts ends (rejecting with its reason) and holds no place. */
  acquire(signal?: AbortSignal): Promise<Lease>;
}

/** A set of tools from one source. */
export interface ToolProvider {
  /** Who provides them, for messages (`corpus`, `--tools ./tools.mjs`, `--mcp stdio:…`). */
  readonly name: string;
  /** Its tools, listed once. */
  readonly tools: readonly SwarmTool[];
  /** Calls to this provider's tools running at once (absent: no bound). */
  readonly limiter?: CallLimiter | undefined;
  /** `false` when its calls must not be cut by the run's tool timeout (`assign_task` runs a sub-agent). */
  readonly timed?: boolean | undefined;
  /** Close what it holds open (an MCP client); called once when the run ends. */
  close?(): Promise<void>;
}
