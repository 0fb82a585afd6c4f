/**
 * Reading an HTTP answer's body with a stated bound: the swarm reads answers from endpoints it
 * does not run (a completions server, a trainer's reward gateway, an MCP server), and none of
 * them may make it hold more than the caller's bound. What is past the bound is not read (the
 * body is cancelled).
 *
 * @module
 */

/** A body read up to a bound. */
export interface BodyRead {
  /** The bytes read: the whole body, or its first `maxBytes` when it was longer. */
  readonly bytes: Buffer;
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
  if (body === null) return { bytes: Buffer.alloc(0), cut: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), cut: false };
    if (length + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - length));
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks), cut: true };
    }
    chunks.push(value);
    length += value.byteLength;
  }
}
