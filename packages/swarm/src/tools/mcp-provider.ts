/**
 * `--mcp`: an MCP server's tools as a tool provider, through the AI SDK's MCP client
 * (`createMCPClient`; stdio through `Experimental_StdioMCPTransport`, or streamable HTTP). The
 * server is started (or reached) and its tools listed once; a server that cannot is an input
 * error before any episode. Later, a server that dies, hangs or answers garbage gives the model
 * tool errors (the executor's timeout bounds every call). The client is closed when the run
 * ends, and a stdio server's process is stopped when this process exits (Ctrl-C included).
 *
 * @module
 */
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { ParlInputError } from '@parl/core';
import { jsonSchema, type JSONSchema7 } from 'ai';
import { mcpTargetOf } from './mcp-target.js';
import { DEFAULT_TOOL_CONCURRENCY } from './module-provider.js';
import { oneLine } from './one-line.js';
import { schemaCheck } from './schema-check.js';
import { Semaphore } from './semaphore.js';
import type { SwarmTool } from './swarm-tool.js';
import { ToolCallError } from './tool-call-error.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tool-executor.js';
import type { ToolProvider } from './tool-provider.js';

const openClients = new Set<MCPClient>();
let exitHookInstalled = false;

/** On the way out of the process, close every client still open (a stdio transport kills its server at once). */
function closeOnExit(client: MCPClient): void {
  openClients.add(client);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of openClients) void c.close().catch(() => undefined);
  });
}

/** An error's message (its name when it has none), on one line. */
function messageLine(err: unknown): string {
  return oneLine(err instanceof Error ? err.message || err.name : err);
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, cut]).finally(() => clearTimeout(timer));
}

interface McpContent {
  readonly type?: unknown;
  readonly text?: unknown;
}

/** The text the model reads of a `tools/call` result. */
function resultText(result: { content?: unknown; structuredContent?: unknown; toolResult?: unknown }): string {
  if (Array.isArray(result.content)) {
    return (result.content as McpContent[]).map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : JSON.stringify(c))).join('\n');
  }
  return JSON.stringify(result.structuredContent ?? result.toolResult ?? result);
}

/**
 * Start (or reach) the MCP server `value` names and list its tools.
 *
 * @param value - `stdio:COMMAND ARGS…` or an http(s) URL
 * @param options - `flag` names the option in errors; `concurrency` bounds its calls running at
 *   once; `startTimeoutMs` bounds the start and the listing
 * @throws ParlInputError naming the flag and value when the server does not start or list its tools
 */
export async function connectMcpServer(
  value: string,
  options: { readonly flag?: string; readonly concurrency?: number; readonly startTimeoutMs?: number } = {},
): Promise<ToolProvider> {
  const flag = options.flag ?? '--mcp';
  const target = mcpTargetOf(value, flag);
  const startMs = options.startTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const transport = target.kind === 'stdio'
    ? new Experimental_StdioMCPTransport({ command: target.command, args: [...target.args], stderr: 'inherit' })
    : { type: 'http' as const, url: target.url };
  let client: MCPClient | undefined;
  let gaveUp = false;
  const definitions: { name: string; description?: string | undefined; inputSchema: unknown }[] = [];
  try {
    const connecting = createMCPClient({ transport, name: 'parl-swarm' } as Parameters<typeof createMCPClient>[0]) as Promise<MCPClient>;
    // A start that loses the race still yields a client: close it when it comes.
    connecting.then((c) => (gaveUp && client === undefined ? void c.close().catch(() => undefined) : undefined), () => undefined);
    client = await within(connecting, startMs, 'starting the server');
    closeOnExit(client);
    let cursor: string | undefined;
    do {
      const page = await within(client.listTools(cursor === undefined ? {} : { params: { cursor } }), startMs, 'listing its tools');
      definitions.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  } catch (err) {
    gaveUp = true;
    if (client !== undefined) {
      openClients.delete(client);
      await client.close().catch(() => undefined);
    } else if ('close' in transport) {
      await transport.close().catch(() => undefined);
    }
    throw new ParlInputError(flag, value, `an MCP server that starts and lists its tools; ${value} did not: ${messageLine(err)}`);
  }
  const open = client;
  const tools = definitions.map((d): SwarmTool => {
    const json = (typeof d.inputSchema === 'object' && d.inputSchema !== null ? d.inputSchema : { type: 'object' }) as JSONSchema7;
    return {
      name: d.name,
      description: d.description ?? '',
      inputSchema: json,
      check: schemaCheck(d.name, jsonSchema(json), json),
      async run(input, context) {
        let result: Awaited<ReturnType<MCPClient['callTool']>>;
        try {
          result = await open.callTool({ name: d.name, arguments: input as Record<string, unknown>, options: { signal: context.signal } });
        } catch (err) {
          throw new ToolCallError(`${d.name} failed: the MCP server ${value} ${context.signal.aborted ? 'gave no answer in time' : `answered with an error: ${messageLine(err)}`}`);
        }
        const text = resultText(result as Parameters<typeof resultText>[0]);
        if ((result as { isError?: unknown }).isError === true) throw new ToolCallError(`${d.name}: ${text === '' ? 'the tool reported an error' : text}`);
        return text;
      },
    };
  });
  return {
    name: `${flag} ${value}`,
    tools,
    limiter: new Semaphore(options.concurrency ?? DEFAULT_TOOL_CONCURRENCY),
    async close() {
      openClients.delete(open);
      await open.close().catch(() => undefined);
    },
  };
}
