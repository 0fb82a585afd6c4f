/**
 * Which agents get the task's tools (the corpus, `--tools`, `--mcp`): a tiny module, so the
 * option tables can name the choices without loading the runtime.
 *
 * @module
 */

/** Who gets the task's tools (written out, so that declarations name it rather than its members in whatever order the compiler met them). */
export type ToolsFor = 'both' | 'subagents' | 'orchestrator';

/** Who gets the task's tools: both (the default), the sub-agents only, or the orchestrator only (the direct fallback). */
export const TOOLS_FOR: readonly ToolsFor[] = ['both', 'subagents', 'orchestrator'];
