/**
 * Answers from endpoints the swarm does not run are read with a stated bound: a completions
 * server's answer past `MAX_COMPLETION_ANSWER_BYTES`, or a chat endpoint's past
 * `MAX_CHAT_ANSWER_BYTES`, fails the call in one line (never held whole), and `readAtMost` reads a
 * body up to its bound and no further. Real HTTP on loopback, the real AI SDK provider.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { generateText } from 'ai';
import { endpointModel } from '../src/index.js';
import { MAX_CHAT_ANSWER_BYTES, readAtMost } from '../src/http/bounded-answers.js';
import { callCompletions, MAX_COMPLETION_ANSWER_BYTES } from '../src/runtime/completions-call.js';
import { SwarmProviderError } from '../src/runtime/errors.js';

/** A loopback server answering every request with `bytes` bytes of JSON-ish text, written in 1 MiB pieces. */
async function answering(bytes: number): Promise<{ url: string; close: () => Promise<void> }> {
  let written = 0;
  const piece = Buffer.alloc(1024 * 1024, 0x20);
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const more = (): void => {
      while (written < bytes) {
        const n = Math.min(piece.length, bytes - written);
        written += n;
        if (!res.write(piece.subarray(0, n))) {
          res.once('drain', more);
          return;
        }
      }
      res.end();
    };
    res.on('error', () => undefined);
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('answers read with a bound', () => {
  it(`a completions answer past ${MAX_COMPLETION_ANSWER_BYTES} bytes fails the call in one line`, async () => {
    const server = await answering(MAX_COMPLETION_ANSWER_BYTES + 8 * 1024 * 1024);
    try {
      const err = await callCompletions({
        endpoint: { baseUrl: server.url, model: 'm' },
        prompt: [1, 2, 3],
        maxTokens: 8,
        signal: new AbortController().signal,
        retry: { attempts: 1, baseDelayMs: 1, timeoutMs: 30_000 },
      }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(SwarmProviderError);
      expect((err as Error).message).toContain(`${server.url}/completions: the answer is more than ${MAX_COMPLETION_ANSWER_BYTES} bytes, the most this client reads`);
      expect((err as Error).message).not.toContain('\n');
    } finally {
      await server.close();
    }
  }, 60_000);

  it(`a chat answer past ${MAX_CHAT_ANSWER_BYTES} bytes fails the model call, naming the URL (through the AI SDK provider the run makes)`, async () => {
    const server = await answering(MAX_CHAT_ANSWER_BYTES + 8 * 1024 * 1024);
    try {
      const err = await generateText({ model: endpointModel(server.url, 'm', {}), prompt: 'hi', maxRetries: 0 }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toBe(`the answer from ${server.url}/chat/completions is more than ${MAX_CHAT_ANSWER_BYTES} bytes, the most this client reads`);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('readAtMost reads up to its bound and says whether the body was longer', async () => {
    expect(await readAtMost(new Response('hello').body, 3)).toEqual({ bytes: new TextEncoder().encode('hel'), cut: true });
    expect(await readAtMost(new Response('hello').body, 5)).toEqual({ bytes: new TextEncoder().encode('hello'), cut: false });
    expect(await readAtMost(null, 5)).toEqual({ bytes: new Uint8Array(0), cut: false });
  });
});
