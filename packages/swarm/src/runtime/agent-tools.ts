/**
 * An agent's tools: the executor's toolbox and the function tools the model is offered, each
 * tool's schema converted once per agent (not per call).
 *
 * @module
 */
import type { LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import type { ToolProvider } from '../tools/tool-provider.js';
import { toolboxOf, toolsOf, type Toolbox } from '../tools/toolbox.js';

/** An agent's tools: the executor's toolbox and the function tools the model is offered. */
export interface AgentTools {
  /** The tools by name, for the executor. */
  readonly box: Toolbox;
  /** The tools as a language model's call takes them (name, description, JSON schema), in the order they were added. */
  readonly functions: readonly LanguageModelV4FunctionTool[];
}

/** The tools of some providers, for one agent. */
export function agentToolsOf(providers: readonly ToolProvider[]): AgentTools {
  const box = toolboxOf(providers);
  const functions = toolsOf(box).map((t): LanguageModelV4FunctionTool => ({ type: 'function', name: t.name, inputSchema: t.inputSchema, description: t.description }));
  return { box, functions };
}
