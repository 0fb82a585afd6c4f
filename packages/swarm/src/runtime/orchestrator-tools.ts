/**
 * The orchestrator's tools, `create_subagent` and `assign_task`, named and shaped as in the
 * report's appendix (spec §10): a record keyed by tool name.
 *
 * @module
 */
import type { ToolSpec } from '../tools/tool-spec.js';

/** The orchestrator's tools by name (spec §10). */
export const ORCHESTRATOR_TOOLS = {
  create_subagent: {
    name: 'create_subagent',
    description: 'Define a sub-agent: a frozen model with this system prompt and the task\'s tools. Use assign_task to give it work.',
    parameters: { name: 'A name for the sub-agent, unique in this episode', system_prompt: 'The sub-agent\'s system prompt' },
  },
  assign_task: {
    name: 'assign_task',
    description: 'Run a sub-agent you defined on a prompt. The result is the sub-agent\'s final message.',
    parameters: { agent: 'The name of a sub-agent defined with create_subagent', prompt: 'What the sub-agent should do' },
  },
} as const satisfies Readonly<Record<string, ToolSpec>>;

/** An orchestrator tool's name. */
export type OrchestratorToolName = keyof typeof ORCHESTRATOR_TOOLS;
