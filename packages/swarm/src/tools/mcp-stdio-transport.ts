/**
 * The stdio transport of an MCP server this process starts: the MCP SDK's message framing over a
 * child process started in a process group of its own, so that a server started through a wrapper
 * (`npx -y …`, `uvx …`, a shell) is stopped whole. Stopping sends SIGTERM to the group and SIGKILL
 * after a short grace period (a server that ignores SIGTERM); the group is also registered in
 * `@parl/io`'s cleanup registry, so it is killed whenever this process exits. The server's
 * environment is the SDK's small default set plus the variables the run forwards; its stderr is
 * kept (the last line names why a server did not start), not printed. Its messages are read with a
 * stated bound (`mcp-message-lines.ts`, 16 MiB): a longer one is passed over, and the call it
 * answered fails at once with an error that says so (the server goes on serving).
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { onProcessExit } from '@parl/io';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { droppedMessageId, MAX_MCP_MESSAGE_BYTES, MessageLines, type DroppedMessage } from './mcp-message-lines.js';

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
  private readonly lines = new MessageLines();
  /** Ids of the requests sent and not answered yet (a message too long to read fails its own). */
  private readonly unanswered = new Set<string | number>();
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
        this.lines.push(chunk, (line) => this.received(line), (dropped) => this.dropped(dropped));
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4_096);
      });
    });
  }

  /** One line from the server: a message, or an error reported (a line that is not one is passed over). */
  private received(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (err) {
      this.onerror?.(err as Error);
      return;
    }
    const id = (message as { readonly id?: string | number }).id;
    if (id !== undefined && ('result' in message || 'error' in message)) this.unanswered.delete(id);
    this.onmessage?.(message);
  }

  /**
   * A message too long to read: the request it answers (its id, found at either end, or the only
   * one waiting) gets an error answer saying so; with no request to give it to, it is reported.
   */
  private dropped(message: DroppedMessage): void {
    const said = `the server's message was ${message.bytes} bytes, more than the ${MAX_MCP_MESSAGE_BYTES} this client reads; it was not read`;
    const found = droppedMessageId(message);
    const only = this.unanswered.size === 1 ? this.unanswered.values().next().value : undefined;
    const id = found !== undefined && this.unanswered.has(found) ? found : only;
    if (id === undefined) {
      this.onerror?.(new Error(said));
      return;
    }
    this.unanswered.delete(id);
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: said } });
  }

  /** Send one message to the server. */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || stdin.destroyed) return Promise.reject(new Error('the server has exited'));
    if ('method' in message && 'id' in message) this.unanswered.add(message.id);
    // A call given up (its timeout, an abort) is answered by no one: it waits no more.
    else if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { readonly requestId?: string | number } | undefined)?.requestId;
      if (cancelled !== undefined) this.unanswered.delete(cancelled);
    }
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
    this.lines.clear();
    this.unanswered.clear();
  }
}
