/**
 * The `fetch` of an HTTP MCP server's transport, with the same bound on a message as a stdio
 * server's ({@link MAX_MCP_MESSAGE_BYTES}): the MCP SDK reads a JSON answer whole and an SSE
 * event whole, however long, so a server (or anything between) could fill this process's memory.
 *
 * - A JSON answer (or any other body that is not an event stream) is read up to the bound; past
 *   it, the rest is not read and, when the request was one JSON-RPC call, the answer becomes that
 *   call's error saying so (the call fails at once); otherwise the body is cut to a line saying so.
 * - An event stream is read event by event: an event past the bound is passed over to its end,
 *   and an error answer for the request the stream answers (a POST of one call) takes its place;
 *   the stream goes on.
 *
 * @module
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { NO_BODY_STATUSES, readAtMost } from '../http/bounded-answers.js';
import { MAX_MCP_MESSAGE_BYTES } from './mcp-message-lines.js';

/** What an answer past the bound of `maxBytes` is replaced by, in words. */
function tooLong(maxBytes: number): string {
  return `the server's message was more than ${maxBytes} bytes, the most this client reads; it was not read`;
}

/** The id of the one JSON-RPC call a request body carries, if it carries exactly one. */
function callIdOf(body: RequestInit['body'] | undefined): string | number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = JSON.parse(body) as unknown;
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
    const { id, method } = message as { id?: unknown; method?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON-RPC error answer of call `id`. */
function errorAnswer(id: string | number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message } });
}

/**
 * `inner` with every answer's message bounded to `maxBytes` (see the module comment).
 *
 * @param inner - the fetch to wrap (default the global `fetch`)
 * @param maxBytes - the longest message read (default {@link MAX_MCP_MESSAGE_BYTES})
 */
export function boundedMcpFetch(inner: FetchLike = fetch, maxBytes = MAX_MCP_MESSAGE_BYTES): FetchLike {
  return async (url, init) => {
    const response = await inner(url, init);
    if (response.body === null || NO_BODY_STATUSES.has(response.status)) return response;
    const callId = callIdOf(init?.body);
    const type = response.headers.get('content-type') ?? '';
    const body = type.includes('text/event-stream') ? response.body.pipeThrough(boundedEvents(maxBytes, callId)) : await boundedBody(response.body, maxBytes, callId, response.ok);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** A whole body, read up to `maxBytes`; past it, the call's error answer (or a line) instead. */
async function boundedBody(body: ReadableStream<Uint8Array>, maxBytes: number, callId: string | number | undefined, ok: boolean): Promise<Uint8Array<ArrayBuffer> | string> {
  const { bytes, cut } = await readAtMost(body, maxBytes);
  if (!cut) return bytes;
  const said = tooLong(maxBytes);
  return ok && callId !== undefined ? errorAnswer(callId, said) : said;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * An event stream with each event past `maxBytes` passed over, and an error answer for `callId`
 * (when the stream answers one call) in its place. Each event is held until its blank line (at
 * most `maxBytes` of it), so nothing of an event that turns out too long has been sent on. Lines
 * end with LF or CRLF (not CR alone).
 */
function boundedEvents(maxBytes: number, callId: string | number | undefined): TransformStream<Uint8Array, Uint8Array> {
  /** The event so far (its pieces, its bytes) and its current line's bytes without CR. */
  let pieces: Uint8Array[] = [];
  let eventBytes = 0;
  let lineBytes = 0;
  /** Passing over an event past the bound. */
  let skipping = false;
  return new TransformStream({
    transform(chunk, controller) {
      let from = 0;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i] as number;
        if (byte === LF && lineBytes === 0) {
          // A blank line ends the event: send it on whole, or the call's error in its place.
          if (skipping) {
            if (callId !== undefined) controller.enqueue(new TextEncoder().encode(`event: message\ndata: ${errorAnswer(callId, tooLong(maxBytes))}\n\n`));
          } else {
            for (const piece of pieces) controller.enqueue(piece);
            controller.enqueue(chunk.subarray(from, i + 1));
          }
          pieces = [];
          eventBytes = 0;
          skipping = false;
          from = i + 1;
          continue;
        }
        if (byte === LF) lineBytes = 0;
        else if (byte !== CR) lineBytes++;
        eventBytes++;
        if (!skipping && eventBytes > maxBytes) {
          skipping = true;
          pieces = [];
        }
      }
      if (!skipping && from < chunk.length) pieces.push(chunk.subarray(from));
    },
    flush(controller) {
      // A last event the stream did not end with a blank line goes on as it came.
      if (!skipping) for (const piece of pieces) controller.enqueue(piece);
    },
  });
}
