/**
 * An agent's tools: the executor's toolbox and the AI SDK tool set the model is offered, built
 * once per agent.
 *
 * @module
 */
import type { ToolSet } from 'ai';
import type { ToolProvider } from '../tools/tool-provider.js';
import { toolSetOf } from '../tools/tool-set.js';
import { toolboxOf, toolsOf, type Toolbox } from '../tools/toolbox.js';

/** An agent's tools: the executor's toolbox and the AI SDK tool set the model is offered. */
export interface AgentTools {
  readonly box: Toolbox;
  readonly set: ToolSet;
}

/** The tools of some providers, for one agent. */
export function agentToolsOf(providers: readonly ToolProvider[]): AgentTools {
  const box = toolboxOf(providers);
  return { box, set: toolSetOf(toolsOf(box)) };
}
