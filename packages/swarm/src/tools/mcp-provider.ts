/**
 * `--mcp`: an MCP server's tools as a tool provider, through the official MCP SDK's client
 * (`@modelcontextprotocol/sdk`, the client the MCP conformance suite is built against): stdio
 * through {@link ProcessGroupStdioTransport} (the server in a process group of its own, stopped
 * whole), streamable HTTP through the SDK's transport (the run's headers, OAuth through
 * {@link HeadlessOAuthProvider}, a closed stream resumed after the server's `retry` with
 * `Last-Event-ID`). The server is started (or reached) and its tools listed once; a server that
 * cannot is one line naming `--mcp`, the server's short name and why (a stdio server's last
 * stderr line), before any episode. Later, a server that dies, hangs, answers garbage or breaks a
 * tool's own `outputSchema` gives the model tool errors (the executor's timeout bounds every call).
 *
 * @module
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ParlInputError } from '@parl/core';
import { jsonSchema, type JSONSchema7 } from 'ai';
import { forwardedEnvironment, headersFrom, valueFrom, type Environment } from './mcp-credentials.js';
import { BrowserAuthorizationNeeded, HeadlessOAuthProvider } from './mcp-oauth.js';
import { ProcessGroupStdioTransport } from './mcp-stdio-transport.js';
import { mcpTargetOf, type McpTarget } from './mcp-target.js';
import { DEFAULT_TOOL_CONCURRENCY } from './module-provider.js';
import { outputCheck, schemaCheck } from './schema-check.js';
import { Semaphore } from './semaphore.js';
import type { SwarmTool } from './swarm-tool.js';
import { ToolCallError } from './tool-call-error.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tool-executor.js';
import type { ToolProvider } from './tool-provider.js';

/**
 * How to reach MCP servers: the same settings as the option rows `mcpHeader`, `mcpEnv`,
 * `mcpClientId` and `mcpClientSecret` of `parl swarm run` (one row each).
 */
export interface McpCredentials {
  /** Headers for HTTP servers, `NAME: VALUE` each, `VALUE` literal or `env:VAR`. */
  readonly mcpHeader?: readonly string[] | undefined;
  /** Environment variables forwarded (by name) to stdio servers. */
  readonly mcpEnv?: readonly string[] | undefined;
  /** A pre-registered OAuth client's id. */
  readonly mcpClientId?: string | undefined;
  /** Its secret, `env:VAR`. */
  readonly mcpClientSecret?: string | undefined;
}

/** Options of {@link connectMcpServer}. */
export interface McpConnectOptions extends McpCredentials {
  /** The option's name in errors (default `--mcp`). */
  readonly flag?: string;
  /** Calls running at once. */
  readonly concurrency?: number;
  /** Bounds the start, the listing and each call's request, ms. */
  readonly startTimeoutMs?: number;
  /** Where `env:VAR` and forwarded variables are read (default `process.env`). */
  readonly environment?: Environment;
}

const CLIENT_INFO = { name: 'parl-swarm', version: '1' } as const;

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, cut]).finally(() => clearTimeout(timer));
}

/** The error in `err`'s cause chain that is a `BrowserAuthorizationNeeded`, if any. */
function browserNeeded(err: unknown): BrowserAuthorizationNeeded | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof BrowserAuthorizationNeeded) return e;
  return undefined;
}

/** The text the model reads of a `tools/call` result. */
function resultText(result: CallToolResult): string {
  if (result.content.length > 0) return result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
  return JSON.stringify(result.structuredContent ?? {});
}

/** A connected client and what the failure line of its server can add (a stdio server's last stderr line). */
interface Connection {
  readonly client: Client;
  readonly why: () => string | undefined;
}

async function connectStdio(target: McpTarget & { kind: 'stdio' }, env: Record<string, string>, timeoutMs: number, started: (t: ProcessGroupStdioTransport) => void): Promise<Connection> {
  const transport = new ProcessGroupStdioTransport({ command: target.command, args: target.args, env });
  started(transport);
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  await client.connect(transport, { timeout: timeoutMs });
  return { client, why: () => transport.lastStderrLine };
}

async function connectHttp(url: string, headers: Record<string, string>, oauth: HeadlessOAuthProvider | undefined, timeoutMs: number): Promise<Connection> {
  // The authorization-code flow needs a second connection once the code is exchanged.
  for (let attempt = 0; ; attempt++) {
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, ...(oauth === undefined ? {} : { authProvider: oauth }) });
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    try {
      await client.connect(transport, { timeout: timeoutMs });
      return { client, why: () => undefined };
    } catch (err) {
      const code = oauth?.pendingCode;
      if (err instanceof UnauthorizedError && code !== undefined && attempt === 0) {
        oauth!.pendingCode = undefined;
        await transport.finishAuth(code);
        await client.close().catch(() => undefined);
        continue;
      }
      await client.close().catch(() => undefined);
      throw err;
    }
  }
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
  const target = mcpTargetOf(value, flag);
  const startMs = options.startTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const environment = options.environment ?? process.env;
  let stdio: ProcessGroupStdioTransport | undefined;
  let connection: Connection | undefined;
  let gaveUp = false;
  const definitions: Tool[] = [];
  try {
    const connecting =
      target.kind === 'stdio'
        ? connectStdio(target, forwardedEnvironment(options.mcpEnv ?? [], '--mcp-env', environment), startMs, (t) => (stdio = t))
        : connectHttp(target.url, headersFrom(options.mcpHeader ?? [], '--mcp-header', environment), oauthFor(options, environment), startMs);
    // A start that loses the race still yields a client: close it when it comes.
    connecting.then((c) => (gaveUp ? void c.client.close().catch(() => undefined) : undefined), () => undefined);
    connection = await within(connecting, startMs, 'starting the server');
    let cursor: string | undefined;
    do {
      const page = await within(connection.client.listTools(cursor === undefined ? {} : { cursor }, { timeout: startMs }), startMs, 'listing its tools');
      definitions.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  } catch (err) {
    gaveUp = true;
    if (err instanceof ParlInputError) throw err;
    const stderr = stdio?.lastStderrLine;
    if (connection !== undefined) await connection.client.close().catch(() => undefined);
    else await stdio?.close();
    const browser = browserNeeded(err);
    const why = browser !== undefined ? browser.message : stderr !== undefined ? `${oneLine(err)}; its last stderr line: ${stderr.slice(0, 300)}` : oneLine(err);
    throw new ParlInputError(flag, target.shortName, `an MCP server that starts and lists its tools; it did not: ${why}`);
  }
  const { client } = connection;
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
          result = (await client.request({ method: 'tools/call', params: { name: d.name, arguments: input as Record<string, unknown> } }, CallToolResultSchema, { signal: context.signal, timeout: startMs })) as CallToolResult;
        } catch (err) {
          throw new ToolCallError(`${d.name} failed: the MCP server ${target.shortName} ${context.signal.aborted ? 'gave no answer in time' : `answered with an error: ${oneLine(err)}`}`);
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
    name: `${flag} ${target.shortName}`,
    tools,
    limiter: new Semaphore(options.concurrency ?? DEFAULT_TOOL_CONCURRENCY),
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}

/** The OAuth client of an HTTP server: none when the run sends its own `Authorization` header. */
function oauthFor(options: McpCredentials, environment: Environment): HeadlessOAuthProvider | undefined {
  if ((options.mcpHeader ?? []).some((h) => /^authorization\s*:/i.test(h))) return undefined;
  const secret = options.mcpClientSecret === undefined ? undefined : valueFrom(options.mcpClientSecret, '--mcp-client-secret', environment);
  return new HeadlessOAuthProvider(options.mcpClientId === undefined ? undefined : { clientId: options.mcpClientId, clientSecret: secret });
}
