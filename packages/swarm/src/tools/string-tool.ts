/**
 * A {@link SwarmTool} of required string arguments (a {@link ToolSpec}) and a function over them.
 *
 * @module
 */
import type { SwarmTool, ToolCallContext } from './swarm-tool.js';
import { toolArgsOf } from './tool-args.js';
import { stringArgumentsSchema, type ToolSpec } from './tool-spec.js';

/** The tool of `spec` that runs `run` on checked string arguments. */
export function stringTool(spec: ToolSpec, run: (args: Readonly<Record<string, string>>, context: ToolCallContext) => unknown): SwarmTool {
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: stringArgumentsSchema(spec),
    check(input) {
      const args = toolArgsOf(input, spec);
      return args.ok ? { ok: true, value: args.args } : args;
    },
    run: (input, context) => run(input as Readonly<Record<string, string>>, context),
  };
}
