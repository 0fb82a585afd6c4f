/**
 * The built-in suites' corpus tools (`search`, `open`) as a tool provider.
 *
 * @module
 */
import type { TaskTool } from '../tasks/task.js';
import { stringTool } from './string-tool.js';
import type { ToolProvider } from './tool-provider.js';

/** The provider of a task's own tools (the suites' corpus: synchronous, never slow). */
export function corpusProvider(tools: readonly TaskTool[]): ToolProvider {
  return { name: 'corpus', tools: tools.map((t) => stringTool(t, (args) => t.run(args))) };
}
