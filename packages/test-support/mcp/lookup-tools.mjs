// The tools of the test MCP servers (written with @modelcontextprotocol/sdk): a capital-city
// look-up and an adder that work, and tools that misbehave on purpose — one that crashes the
// server, one that never answers, one whose answer is garbage — so tests see what the model sees.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** Capital cities, the look-up's answers. */
export const CAPITALS = { France: 'Paris', Japan: 'Tokyo', Kenya: 'Nairobi', Peru: 'Lima' };

/** The text the garbage tool returns; the server's transport replaces that answer with a malformed one. */
export const GARBAGE_MARK = '__garbage__';

/** A server with the look-up tools; `name` tells the servers apart in tests. */
export function lookupServer(name = 'lookup') {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool('capital', {
    description: 'The capital city of a country',
    inputSchema: { country: z.string().describe('The country, e.g. France') },
  }, async ({ country }) => {
    const city = CAPITALS[country];
    return city === undefined
      ? { content: [{ type: 'text', text: `no capital known for ${country}` }], isError: true }
      : { content: [{ type: 'text', text: city }] };
  });
  server.registerTool('add', {
    description: 'Add two numbers',
    inputSchema: { a: z.number(), b: z.number() },
  }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  server.registerTool('crash', { description: 'Crash the server (for tests)', inputSchema: {} }, async () => {
    setTimeout(() => process.exit(3), 5);
    return new Promise(() => undefined);
  });
  server.registerTool('hang', { description: 'Never answer (for tests)', inputSchema: {} }, () => new Promise(() => undefined));
  server.registerTool('garbage', { description: 'Answer with a malformed result (for tests)', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: GARBAGE_MARK }] }));
  return server;
}

/** Wrap a server transport so that the garbage tool's answer goes out malformed (content not a list). */
export function garbling(transport) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const content = message?.result?.content;
    if (Array.isArray(content) && content[0]?.text === GARBAGE_MARK) {
      return send({ jsonrpc: '2.0', id: message.id, result: { content: 42, isError: 'maybe' } }, options);
    }
    return send(message, options);
  };
  return transport;
}
