/**
 * `--mcp`: an MCP server's tools as a tool provider. The server is started (or reached) once by
 * {@link connectMcpClient} and its tools listed once; a server that cannot is one line naming
 * `--mcp`, the server's short name and why, before any episode. Later, a server that dies, hangs,
 * answers garbage or breaks a tool's own `outputSchema` gives the model tool errors (the
 * executor's timeout bounds every call), naming the server by its short name.
 *
 * @module
 */
import { CallToolResultSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ParlInputError } from '@parl/core';
import { jsonSchema, type JSONSchema7 } from 'ai';
import { connectMcpClient, messageLine, within, type McpConnectionOptions } from './mcp-connection.js';
import { DEFAULT_TOOL_CONCURRENCY } from './tool-provider.js';
import { outputCheck, schemaCheck } from './schema-check.js';
import { Semaphore } from './semaphore.js';
import type { SwarmTool } from './swarm-tool.js';
import { ToolCallError } from './tool-call-error.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tool-executor.js';
import type { ToolProvider } from './tool-provider.js';

/** Options of {@link connectMcpServer}: how to connect, and its calls running at once. */
export interface McpConnectOptions extends McpConnectionOptions {
  /** Calls running at once. */
  readonly concurrency?: number;
}

/** The text the model reads of a `tools/call` result. */
function resultText(result: CallToolResult): string {
  if (result.content.length > 0) return result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
  return JSON.stringify(result.structuredContent ?? {});
}

/**
 * Start (or reach) the MCP server `value` names and list its tools.
 *
 * @param value - `stdio:COMMAND ARGS…` or an http(s) URL
 * @param options - `flag` names the option in errors; `concurrency` bounds its calls running at
 *   once; `startTimeoutMs` bounds the start and the listing; the credentials as the option rows
 *   give them
 * @throws ParlInputError naming the flag and the server's short name when the server does not
 *   start or list its tools, when a credential's variable is not set, or when its authorization
 *   server wants a person at a browser (the line says how to pass a token instead); never a
 *   credential's value
 */
export async function connectMcpServer(value: string, options: McpConnectOptions = {}): Promise<ToolProvider> {
  const flag = options.flag ?? '--mcp';
  const startMs = options.startTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const connection = await connectMcpClient(value, options);
  const definitions: Tool[] = [];
  try {
    let cursor: string | undefined;
    do {
      const params = cursor === undefined ? {} : { cursor };
      const page = await within(connection.authorized(() => connection.client.listTools(params, { timeout: startMs })), startMs, 'listing its tools');
      definitions.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  } catch (err) {
    const line = connection.failureLine(err);
    await connection.close();
    throw new ParlInputError(flag, connection.shortName, `an MCP server that starts and lists its tools; it did not: ${line}`);
  }
  const { client, shortName } = connection;
  const tools = definitions.map((d): SwarmTool => {
    const json = d.inputSchema as JSONSchema7;
    const checkOutput = d.outputSchema === undefined ? undefined : outputCheck(d.name, d.outputSchema as JSONSchema7);
    return {
      name: d.name,
      description: d.description ?? '',
      inputSchema: json,
      check: schemaCheck(d.name, jsonSchema(json), json),
      async run(input, context) {
        let result: CallToolResult;
        try {
          // Through `request`, not `callTool`: the result's outputSchema is checked below, as a tool error.
          const params = { name: d.name, arguments: input as Record<string, unknown> };
          result = (await connection.authorized(() => client.request({ method: 'tools/call', params }, CallToolResultSchema, { signal: context.signal, timeout: startMs }))) as CallToolResult;
        } catch (err) {
          throw new ToolCallError(`${d.name} failed: the MCP server ${shortName} ${context.signal.aborted ? 'gave no answer in time' : `answered with an error: ${messageLine(err)}`}`);
        }
        const text = resultText(result);
        if (result.isError === true) throw new ToolCallError(`${d.name}: ${text === '' ? 'the tool reported an error' : text}`);
        const broken = checkOutput?.(result.structuredContent);
        if (broken !== undefined) throw new ToolCallError(broken);
        return text;
      },
    };
  });
  return {
    name: `${flag} ${shortName}`,
    tools,
    limiter: new Semaphore(options.concurrency ?? DEFAULT_TOOL_CONCURRENCY),
    close: () => connection.close(),
  };
}
