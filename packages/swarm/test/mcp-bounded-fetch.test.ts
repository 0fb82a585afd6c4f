/**
 * The bound on an HTTP MCP server's messages, over the bytes as they come: an event stream cut
 * anywhere passes through unchanged while every event is within the bound; an event past it is
 * replaced by the call's error answer and the events after it go on; a JSON answer past it
 * becomes the call's error answer. (Against real servers: tool-providers.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { boundedMcpFetch } from '../src/tools/mcp-bounded-fetch.js';

/** A fetch answering with `chunks` as a stream of that content type. */
function answering(chunks: readonly string[], type: string) {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      { status: 200, headers: { 'content-type': type } },
    );
}

const call = { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'huge' } }) };

describe('boundedMcpFetch', () => {
  it('passes an event stream through unchanged, however it is cut, while every event is within the bound', async () => {
    const stream = 'event: message\r\ndata: {"jsonrpc":"2.0","id":4,"result":{}}\r\n\r\nevent: message\ndata: {"a":1}\n\n: a comment\n\n';
    for (const cut of [1, 2, 7, 50, stream.length]) {
      const chunks = Array.from({ length: Math.ceil(stream.length / cut) }, (_, i) => stream.slice(i * cut, (i + 1) * cut));
      const response = await boundedMcpFetch(answering(chunks, 'text/event-stream'), 80)('http://127.0.0.1/mcp', call);
      expect(await response.text()).toBe(stream);
    }
  });

  it('replaces an event past the bound by the call\'s error answer; the events after it go on', async () => {
    const long = `event: message\ndata: {"result":"${'x'.repeat(200)}","jsonrpc":"2.0","id":4}\n\n`;
    const stream = `${long}event: message\ndata: {"b":2}\n\n`;
    const chunks = [stream.slice(0, 30), stream.slice(30, 150), stream.slice(150)];
    const response = await boundedMcpFetch(answering(chunks, 'text/event-stream; charset=utf-8'), 100)('http://127.0.0.1/mcp', call);
    const events = (await response.text()).split('\n\n').filter((e) => e !== '');
    expect(events).toHaveLength(2);
    expect(JSON.parse((events[0] as string).replace('event: message\ndata: ', ''))).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32603, message: "the server's message was more than 100 bytes, the most this client reads; it was not read" },
    });
    expect(events[1]).toBe('event: message\ndata: {"b":2}');
  });

  it('reads a JSON answer within the bound as it came, and one past it as the call\'s error answer', async () => {
    const small = '{"jsonrpc":"2.0","id":4,"result":{"content":[]}}';
    expect(await (await boundedMcpFetch(answering([small.slice(0, 10), small.slice(10)], 'application/json'), 100)('http://127.0.0.1/mcp', call)).text()).toBe(small);
    const big = `{"jsonrpc":"2.0","id":4,"result":"${'x'.repeat(300)}"}`;
    const answer = (await (await boundedMcpFetch(answering([big.slice(0, 150), big.slice(150)], 'application/json'), 100)('http://127.0.0.1/mcp', call)).json()) as { id: number; error: { message: string } };
    expect(answer.id).toBe(4);
    expect(answer.error.message).toMatch(/^the server's message was more than 100 bytes, the most this client reads/);
    // Without one call to answer (a notification), the body is the line saying so.
    const note = await boundedMcpFetch(answering([big], 'application/json'), 100)('http://127.0.0.1/mcp', { method: 'POST', body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    expect(await note.text()).toMatch(/^the server's message was more than 100 bytes, the most this client reads/);
  });
});
