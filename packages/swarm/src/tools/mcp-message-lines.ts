/**
 * The messages of a stdio MCP server, one JSON-RPC message per line, read with a stated bound: a
 * line longer than {@link MAX_MCP_MESSAGE_BYTES} is not held — its bytes are counted and passed
 * over up to its end, and the caller is told, with its first and last bytes, so that it can fail
 * the call it answered. The MCP SDK's own reader throws past its bound (10 MiB) from inside the
 * stream's data handler, which ended the whole process, and joins every chunk of a long message
 * to the ones before it (a copy of the message so far per 64 KiB read).
 *
 * @module
 */

/** The longest message a stdio MCP server may send, bytes (16 MiB): a longer one is not read. */
export const MAX_MCP_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Bytes kept of each end of a message that is not read (where its JSON-RPC `id` is). */
const KEPT_END_BYTES = 256;

/** A message longer than the bound: how long it was, and its ends. */
export interface DroppedMessage {
  /** Its length, bytes (without its line feed). */
  readonly bytes: number;
  /** Its first bytes, as text. */
  readonly head: string;
  /** Its last bytes, as text. */
  readonly tail: string;
}

const LF = 0x0a;

/** Splits a byte stream into lines of at most `maxBytes` (see the module comment). */
export class MessageLines {
  private pieces: Buffer[] = [];
  private held = 0;
  /** The message being passed over, once it is past the bound. */
  private dropping: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  /** @param maxBytes - the longest line held (default {@link MAX_MCP_MESSAGE_BYTES}) */
  constructor(private readonly maxBytes = MAX_MCP_MESSAGE_BYTES) {}

  /**
   * Read `chunk`: `onLine` gets each whole line (UTF-8, a trailing CR removed), `onDropped` each
   * line past the bound, in order.
   */
  push(chunk: Buffer, onLine: (line: string) => void, onDropped: (message: DroppedMessage) => void): void {
    let from = 0;
    while (from < chunk.length) {
      const lf = chunk.indexOf(LF, from);
      const piece = chunk.subarray(from, lf < 0 ? chunk.length : lf);
      if (this.dropping !== undefined) this.passOver(piece);
      else if (this.held + piece.length > this.maxBytes) this.startDropping(piece);
      else if (piece.length > 0) {
        this.pieces.push(piece);
        this.held += piece.length;
      }
      if (lf < 0) return;
      from = lf + 1;
      const dropped = this.dropping;
      const pieces = this.pieces;
      this.pieces = [];
      this.held = 0;
      this.dropping = undefined;
      if (dropped !== undefined) {
        onDropped({ bytes: dropped.bytes, head: dropped.head.toString('utf8'), tail: dropped.tail.toString('utf8') });
      } else {
        const line = (pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces)).toString('utf8');
        onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      }
    }
  }

  /** Forget a partial line (the stream has ended). */
  clear(): void {
    this.pieces = [];
    this.held = 0;
    this.dropping = undefined;
  }

  private startDropping(piece: Buffer): void {
    const all = Buffer.concat([...this.pieces, piece]);
    this.pieces = [];
    this.held = 0;
    this.dropping = { bytes: all.length, head: Buffer.from(all.subarray(0, KEPT_END_BYTES)), tail: Buffer.from(all.subarray(-KEPT_END_BYTES)) };
  }

  private passOver(piece: Buffer): void {
    const dropping = this.dropping as { bytes: number; head: Buffer; tail: Buffer };
    dropping.bytes += piece.length;
    dropping.tail = piece.length >= KEPT_END_BYTES ? Buffer.from(piece.subarray(-KEPT_END_BYTES)) : Buffer.concat([dropping.tail, piece]).subarray(-KEPT_END_BYTES);
  }
}

/** A JSON-RPC id at the start of a message, before any nested value: `{"jsonrpc":"2.0","id":7,…`. */
const ID_AT_HEAD = /^\s*\{[^{}[\]]*?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*[,}]/;
/** A JSON-RPC id as the message's last member: `…,"id":7}` (a nested one would be followed by two closing brackets). */
const ID_AT_TAIL = /[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

/**
 * The JSON-RPC id of a message that was not read, found at either end of it (where servers put
 * it: the MCP SDK writes it last, others first), or `undefined`.
 *
 * @example
 * ```ts
 * droppedMessageId({ bytes: 1e8, head: '{"result":{"content":[{"type":"text","text":"xx', tail: 'xx"}]},"jsonrpc":"2.0","id":3}' }); // 3
 * ```
 */
export function droppedMessageId(message: DroppedMessage): string | number | undefined {
  const found = ID_AT_HEAD.exec(message.head)?.[1] ?? ID_AT_TAIL.exec(message.tail)?.[1];
  if (found === undefined) return undefined;
  try {
    return JSON.parse(found) as string | number;
  } catch {
    return undefined;
  }
}
