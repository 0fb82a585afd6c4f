/**
 * The tools of a run besides the task's own: a `--tools` module and the `--mcp` servers, each
 * loaded (and its tools listed) once, before any episode; closed together when the run ends.
 *
 * @module
 */
import { mcpCredentialsOf, type McpCredentials } from './run-tool-options.js';
import type { Environment } from './mcp-credentials.js';
import { connectMcpServer } from './mcp-provider.js';
import { loadToolsModule } from './module-provider.js';
import type { ToolProvider } from './tool-provider.js';
import { toolboxOf } from './toolbox.js';

/** What a run's tools come from (the MCP servers' credentials as the option rows name them). */
export interface RunToolsOptions extends McpCredentials {
  /** A module of AI SDK tools. */
  readonly tools?: string | undefined;
  /** MCP servers: `stdio:COMMAND ARGS…` or http(s) URLs. */
  readonly mcp?: readonly string[] | undefined;
  /** Tool calls running at once per module or server. */
  readonly toolConcurrency?: number | undefined;
  /** Bounds an MCP server's start and listing, ms. */
  readonly startTimeoutMs?: number | undefined;
  /** Where `env:VAR` values and forwarded variables are read (default `process.env`). */
  readonly environment?: Environment | undefined;
  /** The flag names in errors (default `--tools` and `--mcp`). */
  readonly flags?: { readonly tools: string; readonly mcp: string } | undefined;
}

/** The tool settings of a run's options (the option rows' keys), as {@link openRunTools} takes them. */
export function runToolsOptionsOf(options: RunToolsOptions): RunToolsOptions {
  return {
    tools: options.tools,
    mcp: options.mcp,
    ...mcpCredentialsOf(options),
    toolConcurrency: options.toolConcurrency,
  };
}

/** A run's open tool providers. */
export interface RunTools {
  /** The providers, in the order named. */
  readonly providers: readonly ToolProvider[];
  /** Close every provider (once; later calls do nothing). */
  close(): Promise<void>;
}

/** Close providers, never throwing. */
async function closeAll(providers: readonly ToolProvider[]): Promise<void> {
  await Promise.all(providers.map((p) => p.close?.().catch(() => undefined)));
}

/**
 * Load the run's tools module and start its MCP servers, listing their tools once.
 *
 * @throws ParlInputError (one line naming the flag and the file or server) when a module cannot
 *   be imported or has no tool, a server does not start, or two providers share a tool name;
 *   whatever had been opened is closed first
 */
export async function openRunTools(options: RunToolsOptions): Promise<RunTools> {
  const flags = options.flags ?? { tools: '--tools', mcp: '--mcp' };
  const providers: ToolProvider[] = [];
  try {
    if (options.tools !== undefined) {
      providers.push(await loadToolsModule(options.tools, { flag: flags.tools, ...(options.toolConcurrency === undefined ? {} : { concurrency: options.toolConcurrency }) }));
    }
    for (const server of options.mcp ?? []) {
      providers.push(await connectMcpServer(server, {
        flag: flags.mcp,
        ...mcpCredentialsOf(options),
        ...(options.environment === undefined ? {} : { environment: options.environment }),
        ...(options.toolConcurrency === undefined ? {} : { concurrency: options.toolConcurrency }),
        ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
      }));
    }
    toolboxOf(providers);
  } catch (err) {
    await closeAll(providers);
    throw err;
  }
  let closed = false;
  return {
    providers,
    async close() {
      if (closed) return;
      closed = true;
      await closeAll(providers);
    },
  };
}
