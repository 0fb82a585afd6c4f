/**
 * `--tools ./tools.mjs`: a module's AI SDK tools (`tool({ description, inputSchema, execute })`,
 * zod or JSON schemas, async allowed) as a tool provider. Every export that is a tool is one,
 * named as exported; a default export that is an object of tools gives those too.
 *
 * @module
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ParlInputError } from '@parl/core';
import { asSchema, type JSONSchema7, type Tool } from 'ai';
import { oneLine } from './one-line.js';
import { schemaCheck } from './schema-check.js';
import { Semaphore } from './semaphore.js';
import type { SwarmTool } from './swarm-tool.js';
import { DEFAULT_TOOL_CONCURRENCY, type ToolProvider } from './tool-provider.js';

export { DEFAULT_TOOL_CONCURRENCY };

function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && 'inputSchema' in value;
}

/** The result of an `execute` that may stream (an async iterable: its last value). */
async function settled(value: unknown): Promise<unknown> {
  if (typeof value === 'object' && value !== null && Symbol.asyncIterator in value) {
    let last: unknown;
    for await (const part of value as AsyncIterable<unknown>) last = part;
    return last;
  }
  return value;
}

/** One AI SDK tool as a {@link SwarmTool}; `where` names it in errors. */
export async function swarmToolOf(name: string, t: Tool, where: string): Promise<SwarmTool> {
  const execute = t.execute;
  if (typeof execute !== 'function') throw new ParlInputError(where, name, 'a tool with an execute function (the runtime runs the calls)');
  const schema = asSchema(t.inputSchema as Parameters<typeof asSchema>[0]);
  const json = (await schema.jsonSchema) as JSONSchema7;
  return {
    name,
    description: typeof t.description === 'function' ? t.description({ context: undefined }) : (t.description ?? ''),
    inputSchema: json,
    check: schemaCheck(name, schema, json),
    run: async (input, context) =>
      settled(await execute(input as never, { toolCallId: context.callId, messages: [], abortSignal: context.signal, context: undefined } as never)),
  };
}

/**
 * Import the tools module at `path` and list its tools (once).
 *
 * @param path - the module's path (relative to the working folder)
 * @param options - `flag` names the option in errors; `concurrency` bounds its calls running at once
 * @throws ParlInputError naming the flag and file when the module cannot be imported, throws on
 *   import, or exports no tool
 */
export async function loadToolsModule(path: string, options: { readonly flag?: string; readonly concurrency?: number } = {}): Promise<ToolProvider> {
  const flag = options.flag ?? '--tools';
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (err) {
    throw new ParlInputError(flag, path, `a module of AI SDK tools that imports cleanly; importing ${path} failed: ${oneLine(err)}`);
  }
  const found: [string, Tool][] = [];
  for (const [name, value] of Object.entries(mod)) {
    if (name === 'default') continue;
    if (isTool(value)) found.push([name, value]);
  }
  const fallback = mod['default'];
  if (typeof fallback === 'object' && fallback !== null && !isTool(fallback)) {
    for (const [name, value] of Object.entries(fallback)) if (isTool(value) && !found.some(([n]) => n === name)) found.push([name, value]);
  }
  if (found.length === 0) throw new ParlInputError(flag, path, `a module exporting AI SDK tools (export const search = tool({ description, inputSchema, execute })); ${path} exports none`);
  const tools = await Promise.all(found.map(([name, t]) => swarmToolOf(name, t, `${flag} ${path}`)));
  return { name: `${flag} ${path}`, tools, limiter: new Semaphore(options.concurrency ?? DEFAULT_TOOL_CONCURRENCY) };
}
