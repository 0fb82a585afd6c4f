/**
 * Reading HTTP answers with a stated bound: the swarm reads answers from endpoints it does not
 * run (a chat or completions server, a judge, a trainer's reward gateway, an MCP server), and
 * none of them may make it hold more than the caller's bound. What is past the bound is not read
 * (the body is cancelled).
 *
 * @module
 */

/** Statuses whose answers have no body (a `Response` made with one throws). */
export const NO_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

/** A body read up to a bound. */
export interface BodyRead {
  /** The bytes read: the whole body, or its first `maxBytes` when it was longer. */
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** Whether the body was longer than the bound (the rest was not read). */
  readonly cut: boolean;
}

/**
 * Read `body` up to `maxBytes`.
 *
 * @example
 * ```ts
 * const { bytes, cut } = await readAtMost(new Response('hello').body, 3); // bytes 'hel', cut true
 * ```
 */
export async function readAtMost(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<BodyRead> {
  if (body === null) return { bytes: new Uint8Array(0), cut: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (length + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - length));
      length = maxBytes;
      cut = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    length += value.byteLength;
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes, cut };
}

/** The UTF-8 text of `bytes`. */
export function textOf(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** The longest chat-completions answer read from an endpoint a run names, bytes (64 MiB). */
export const MAX_CHAT_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * `fetch` with every answer that is not an event stream read up to `maxBytes` (an event stream
 * is passed on as it comes); a longer answer fails the request with one line naming the URL.
 * Given to the AI SDK providers the swarm makes for `--base-url` and `--judge-base-url`.
 *
 * @param maxBytes - the longest answer read (default {@link MAX_CHAT_ANSWER_BYTES})
 */
export function boundedAnswerFetch(maxBytes = MAX_CHAT_ANSWER_BYTES): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.body === null || (response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
    const { bytes, cut } = await readAtMost(response.body, maxBytes);
    if (cut) throw new Error(`the answer from ${response.url} is more than ${maxBytes} bytes, the most this client reads`);
    return new Response(NO_BODY_STATUSES.has(response.status) ? null : bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

