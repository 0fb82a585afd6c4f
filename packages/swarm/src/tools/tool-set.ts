/**
 * The AI SDK tool set the model is offered: each tool's name, description and schema, no
 * `execute` (the runtime runs the calls itself, through the tool-call executor).
 *
 * @module
 */
import { jsonSchema, tool, type ToolSet } from 'ai';
import type { SwarmTool } from './swarm-tool.js';

/** The AI SDK tool set of some tools. */
export function toolSetOf(tools: readonly SwarmTool[]): ToolSet {
  const set: ToolSet = {};
  for (const t of tools) set[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema) });
  return set;
}
