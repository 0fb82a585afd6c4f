/**
 * The test MCP servers (packages/test-support/mcp/, written with @modelcontextprotocol/sdk): the
 * stdio server's command line, and the streamable-HTTP server started as its own process on a
 * loopback port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MCP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'mcp');

/** The stdio server's script. */
export const STDIO_MCP_SERVER = join(MCP_DIR, 'stdio-server.mjs');

/** The streamable-HTTP server's script. */
export const HTTP_MCP_SERVER = join(MCP_DIR, 'http-server.mjs');

/** The `--mcp` value that starts the stdio server (`extra` flags such as `--fail-start`). */
export function stdioMcpSpec(...extra: string[]): string {
  return ['stdio:' + JSON.stringify(process.execPath), JSON.stringify(STDIO_MCP_SERVER), ...extra].join(' ');
}

/** A running HTTP MCP server process. */
export interface HttpMcpServer {
  /** Its URL (`http://127.0.0.1:PORT/mcp`). */
  readonly url: string;
  /** The process. */
  readonly process: ChildProcess;
  /** Stop it and wait until it is gone. */
  stop(): Promise<void>;
}

/**
 * Start the streamable-HTTP MCP server as its own process on a free loopback port; `flags` as
 * http-server.mjs takes them (`--bearer-env VAR`, `--browser-login`), `env` its environment.
 */
export async function startHttpMcpServer(flags: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<HttpMcpServer> {
  const child = spawn(process.execPath, [HTTP_MCP_SERVER, ...flags], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const lines = createInterface({ input: child.stdout! });
  const [url] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the HTTP MCP server exited with ${String(code)} before listening`);
    }),
  ])) as [string];
  lines.close();
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      await gone;
    },
  };
}
