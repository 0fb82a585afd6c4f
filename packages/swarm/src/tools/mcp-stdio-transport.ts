/**
 * The stdio transport of an MCP server this process starts: the MCP SDK's message framing over a
 * child process started in a process group of its own, so that a server started through a wrapper
 * (`npx -y …`, `uvx …`, a shell) is stopped whole. Stopping sends SIGTERM to the group and SIGKILL
 * after a short grace period (a server that ignores SIGTERM); the group is also registered in
 * `@parl/io`'s cleanup registry, so it is killed whenever this process exits. The server's
 * environment is the SDK's small default set plus the variables the run forwards; its stderr is
 * kept (the last line names why a server did not start), not printed.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { onProcessExit } from '@parl/io';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How long a server's process group has to end after SIGTERM before it is killed, ms. */
export const STOP_GRACE_MS = 2_000;

/** What starts a stdio server. */
export interface StdioServerParameters {
  /** The command (found on PATH). */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Variables added to the default environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Grace period after SIGTERM, ms (default {@link STOP_GRACE_MS}). */
  readonly graceMs?: number;
}

/** Whether any process of group `pgid` is still there. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is gone already.
  }
}

/** An MCP stdio transport whose server runs in its own process group. */
export class ProcessGroupStdioTransport implements Transport {
  /** Set by the MCP client. */
  onclose?: () => void;
  /** Set by the MCP client. */
  onerror?: (error: Error) => void;
  /** Set by the MCP client. */
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private pgid: number | undefined;
  private readonly buffer = new ReadBuffer();
  private stderrTail = '';
  private forget: (() => void) | undefined;
  private stopping: Promise<void> | undefined;

  /** @param params - the command, its arguments and the forwarded variables */
  constructor(private readonly params: StdioServerParameters) {}

  /** The last non-empty line the server wrote to stderr, if any. */
  get lastStderrLine(): string | undefined {
    const lines = this.stderrTail.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    return lines[lines.length - 1];
  }

  /** Start the server (resolves once it is spawned). */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, [...this.params.args], {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        shell: false,
      });
      this.child = child;
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.once('spawn', () => {
        const pgid = child.pid as number;
        this.pgid = pgid;
        this.forget = onProcessExit(() => signalGroup(pgid, 'SIGKILL'));
        resolve();
      });
      child.once('close', () => {
        this.child = undefined;
        // A group that is gone is not signalled again (its id may be reused).
        if (this.pgid !== undefined && !groupAlive(this.pgid)) this.forget?.();
        this.onclose?.();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (err) {
            this.onerror?.(err as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4_096);
      });
    });
  }

  /** Send one message to the server. */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || stdin.destroyed) return Promise.reject(new Error('the server has exited'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Stop the server's process group: SIGTERM, then SIGKILL after the grace period. Once. */
  close(): Promise<void> {
    this.stopping ??= this.stop();
    return this.stopping;
  }

  private async stop(): Promise<void> {
    // The group, even when its leader (a wrapper) has exited and left the server behind.
    const pgid = this.pgid;
    if (pgid !== undefined && groupAlive(pgid)) {
      this.child?.stdin?.end();
      signalGroup(pgid, 'SIGTERM');
      const until = Date.now() + (this.params.graceMs ?? STOP_GRACE_MS);
      while (groupAlive(pgid) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
      if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
    }
    this.forget?.();
    this.buffer.clear();
  }
}
