/**
 * Connecting to an MCP server as `--mcp` does, through the official MCP SDK's client
 * (`@modelcontextprotocol/sdk`, the client the MCP conformance suite is built against): stdio
 * through {@link ProcessGroupStdioTransport} (the server in a process group of its own, stopped
 * whole), streamable HTTP through the SDK's transport with the run's headers, OAuth through
 * {@link HeadlessOAuthProvider}, and a closed stream resumed after the server's `retry` with
 * `Last-Event-ID` (the SDK's transport does both). A server that does not start or connect is one
 * line naming the flag, the server's short name and why (a stdio server's last stderr line; an
 * authorization server that wants a browser: how to pass a token instead), never a credential.
 *
 * @module
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { boundedMcpFetch } from './mcp-bounded-fetch.js';
import { ParlInputError } from '@parl/core';
import { forwardedEnvironment, headersFrom, valueFrom, type Environment } from './mcp-credentials.js';
import { BrowserAuthorizationNeeded, HeadlessOAuthProvider } from './mcp-oauth.js';
import { clientKeyFrom } from './mcp-client-key.js';
import type { McpCredentials } from './run-tool-options.js';
import { ProcessGroupStdioTransport } from './mcp-stdio-transport.js';
import { mcpTargetOf, type McpTarget } from './mcp-target.js';
import { oneLine } from './one-line.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tool-executor.js';

/** Options of {@link connectMcpClient}. */
export interface McpConnectionOptions extends McpCredentials {
  /** The option's name in errors (default `--mcp`). */
  readonly flag?: string;
  /** Bounds the start (and, for the tool provider, the listing and each request), ms. */
  readonly startTimeoutMs?: number;
  /** Where `env:VAR` and forwarded variables are read (default `process.env`). */
  readonly environment?: Environment;
}

/** A connected MCP client. */
export interface McpConnection {
  /** The SDK's client, initialized. */
  readonly client: Client;
  /** The server's short name for messages (never its whole command line or query). */
  readonly shortName: string;
  /**
   * Make a request; when an HTTP server asks for a new authorization mid-run (a token expired
   * without a refresh token, a scope step-up), the headless authorization is finished and the
   * request made again, once.
   */
  authorized<T>(call: () => Promise<T>): Promise<T>;
  /** Why the server failed, in one line, for an error naming it (a stdio server's last stderr line). */
  failureLine(err: unknown): string;
  /** Close the client (a stdio server's process group is stopped). */
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'parl-swarm', version: '1' } as const;

/** An error's message (its name when it has none), on one line. */
export function messageLine(err: unknown): string {
  return oneLine(err instanceof Error ? err.message || err.name : err);
}

/** `promise`, or an error saying `what` took longer than `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
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

/** The OAuth client of an HTTP server: none when the run sends its own `Authorization` header. */
function oauthFor(options: McpCredentials, environment: Environment): HeadlessOAuthProvider | undefined {
  if ((options.mcpHeader ?? []).some((h) => /^authorization\s*:/i.test(h))) return undefined;
  if (options.mcpClientSecret !== undefined && options.mcpPrivateKey !== undefined) {
    // The option table refuses the two together; this guards a connection made without it.
    throw new ParlInputError('--mcp-private-key', options.mcpPrivateKey, 'given without --mcp-client-secret (not both)', undefined, 'PARL_ERR_CONFLICT');
  }
  const secret = options.mcpClientSecret === undefined ? undefined : valueFrom(options.mcpClientSecret, '--mcp-client-secret', environment);
  const key = options.mcpPrivateKey === undefined ? undefined : clientKeyFrom(valueFrom(options.mcpPrivateKey, '--mcp-private-key', environment), '--mcp-private-key', options.mcpPrivateKey);
  return new HeadlessOAuthProvider(options.mcpClientId === undefined ? undefined : { clientId: options.mcpClientId, clientSecret: secret, privateKey: key });
}

/** A connected client, and how to finish an authorization an HTTP server asks for mid-run. */
interface ConnectedClient {
  readonly client: Client;
  readonly authorized: <T>(call: () => Promise<T>) => Promise<T>;
}

async function connectHttp(url: string, headers: Record<string, string>, oauth: HeadlessOAuthProvider | undefined, timeoutMs: number): Promise<ConnectedClient> {
  // The authorization-code flow: the SDK's transport stops with UnauthorizedError once the
  // (headless) authorization gave a code; the code is exchanged here, and the caller goes on.
  const finishPending = async (transport: StreamableHTTPClientTransport, err: unknown): Promise<void> => {
    const code = oauth?.pendingCode;
    if (oauth === undefined || !(err instanceof UnauthorizedError) || code === undefined) throw err;
    oauth.pendingCode = undefined;
    await transport.finishAuth(code);
  };
  const retrying = async <T>(transport: StreamableHTTPClientTransport, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      await finishPending(transport, err);
      return call();
    }
  };
  const open = () => {
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch: boundedMcpFetch(), ...(oauth === undefined ? {} : { authProvider: oauth }) });
    return { transport, client: new Client(CLIENT_INFO, { capabilities: {} }) };
  };
  let { transport, client } = open();
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (err) {
    await client.close().catch(() => undefined);
    // A connection whose initialization was refused for want of a token starts again with it.
    await finishPending(transport, err);
    ({ transport, client } = open());
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (again) {
      await client.close().catch(() => undefined);
      throw again;
    }
  }
  const connected = transport;
  return { client, authorized: (call) => retrying(connected, call) };
}

/**
 * Start (or reach) the MCP server `value` names and initialize an MCP client with it.
 *
 * @param value - `stdio:COMMAND ARGS…` or an http(s) URL
 * @param options - `flag` names the option in errors; `startTimeoutMs` bounds the start; the
 *   credentials as the option rows give them
 * @throws ParlInputError naming the flag and the server's short name when the server does not
 *   start, when a credential's variable is not set, or when its authorization server wants a
 *   person at a browser (the line says how to pass a token instead); never a credential's value
 */
export async function connectMcpClient(value: string, options: McpConnectionOptions = {}): Promise<McpConnection> {
  const flag = options.flag ?? '--mcp';
  const target: McpTarget = mcpTargetOf(value, flag);
  const startMs = options.startTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const environment = options.environment ?? process.env;
  let stdio: ProcessGroupStdioTransport | undefined;
  const failureLine = (err: unknown): string => {
    const browser = browserNeeded(err);
    if (browser !== undefined) return browser.message;
    const stderr = stdio?.lastStderrLine;
    return stderr === undefined ? messageLine(err) : `${messageLine(err)}; its last stderr line: ${stderr.slice(0, 300)}`;
  };
  let gaveUp = false;
  let connecting: Promise<ConnectedClient>;
  if (target.kind === 'stdio') {
    stdio = new ProcessGroupStdioTransport({ command: target.command, args: target.args, env: forwardedEnvironment(options.mcpEnv ?? [], '--mcp-env', environment) });
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    connecting = client.connect(stdio, { timeout: startMs }).then(() => ({ client, authorized: (call) => call() }));
  } else {
    connecting = connectHttp(target.url, headersFrom(options.mcpHeader ?? [], '--mcp-header', environment), oauthFor(options, environment), startMs);
  }
  // A start that loses the race still yields a client: close it when it comes.
  connecting.then((c) => (gaveUp ? void c.client.close().catch(() => undefined) : undefined), () => undefined);
  let connected: ConnectedClient;
  try {
    connected = await within(connecting, startMs, 'starting the server');
  } catch (err) {
    gaveUp = true;
    const line = failureLine(err);
    await stdio?.close();
    throw new ParlInputError(flag, target.shortName, `an MCP server that starts and lists its tools; it did not: ${line}`);
  }
  const { client, authorized } = connected;
  return {
    client,
    shortName: target.shortName,
    authorized,
    failureLine,
    close: () => client.close().catch(() => undefined),
  };
}
