/**
 * Which agents get the task's tools (the corpus, `--tools`, `--mcp`): a tiny module, so the
 * option tables can name the choices without loading the runtime.
 *
 * @module
 */

/** Who gets the task's tools: both (the default), the sub-agents only, or the orchestrator only (the direct fallback). */
export const TOOLS_FOR = ['both', 'subagents', 'orchestrator'] as const;

/** Who gets the task's tools. */
export type ToolsFor = (typeof TOOLS_FOR)[number];
