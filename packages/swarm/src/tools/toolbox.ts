/**
 * The tools an agent has, as a record keyed by name: every provider's tools together, each with
 * the provider it came from (whose concurrency bound and timeout rule its calls follow).
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { SwarmTool } from './swarm-tool.js';
import type { ToolProvider } from './tool-provider.js';

/** One tool and its provider. */
export interface ToolEntry {
  readonly tool: SwarmTool;
  readonly provider: ToolProvider;
}

/** Tools by name (a record with no prototype: a model asking for `constructor` finds nothing). */
export type Toolbox = Readonly<Record<string, ToolEntry>>;

/**
 * The toolbox of some providers.
 *
 * @throws ParlInputError when two providers offer a tool of the same name
 */
export function toolboxOf(providers: readonly ToolProvider[]): Toolbox {
  const box = Object.create(null) as Record<string, ToolEntry>;
  for (const provider of providers) {
    for (const tool of provider.tools) {
      const earlier = box[tool.name];
      if (earlier !== undefined) {
        throw new ParlInputError('tools', tool.name, `tool names unique over all providers; ${provider.name} and ${earlier.provider.name} both offer ${JSON.stringify(tool.name)}`);
      }
      box[tool.name] = { tool, provider };
    }
  }
  return box;
}

/** The entry of `name`, if the toolbox has one. */
export function toolNamed(box: Toolbox, name: string): ToolEntry | undefined {
  return Object.hasOwn(box, name) ? box[name] : undefined;
}

/** The tools of a toolbox, in the order they were added. */
export function toolsOf(box: Toolbox): SwarmTool[] {
  return Object.values(box).map((e) => e.tool);
}
