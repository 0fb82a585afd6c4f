// The tools of the test MCP servers (written with @modelcontextprotocol/sdk): a capital-city
// look-up and an adder that work, a tool that says whether an environment variable reached the
// server, and tools that misbehave on purpose — one that crashes the server, one that never
// answers, one whose answer is garbage, one whose result breaks its own output schema — so tests
// see what the model sees.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** Capital cities, the look-up's answers. */
export const CAPITALS = { France: 'Paris', Japan: 'Tokyo', Kenya: 'Nairobi', Peru: 'Lima' };

/** The text the garbage tool returns; the server's transport replaces that answer with a malformed one. */
export const GARBAGE_MARK = '__garbage__';

/** The text the forecast tool returns for a place whose result the transport breaks (its structured content no longer matches the output schema). */
export const BROKEN_OUTPUT_MARK = '__broken_output__';

/** A server with the look-up tools; `name` tells the servers apart in tests; `options.hugeMiB` adds a tool `huge` answering that many MiB of text. */
export function lookupServer(name = 'lookup', options = {}) {
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
  server.registerTool('has_env', {
    description: 'Whether an environment variable is set in the server (never its value)',
    inputSchema: { name: z.string() },
  }, async ({ name }) => ({ content: [{ type: 'text', text: process.env[name] === undefined ? 'not set' : 'set' }] }));
  server.registerTool('forecast', {
    description: 'Tomorrow\'s temperature in a city',
    inputSchema: { city: z.string() },
    outputSchema: { celsius: z.number() },
  }, async ({ city }) => ({ content: [{ type: 'text', text: city === 'Nowhere' ? BROKEN_OUTPUT_MARK : '21' }], structuredContent: { celsius: 21 } }));
  server.registerTool('crash', { description: 'Crash the server (for tests)', inputSchema: {} }, async () => {
    setTimeout(() => process.exit(3), 5);
    return new Promise(() => undefined);
  });
  server.registerTool('hang', { description: 'Never answer (for tests)', inputSchema: {} }, () => new Promise(() => undefined));
  server.registerTool('garbage', { description: 'Answer with a malformed result (for tests)', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: GARBAGE_MARK }] }));
  if (options.hugeMiB !== undefined) {
    server.registerTool('huge', { description: `Answer with ${options.hugeMiB} MiB of text (for tests)`, inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'x'.repeat(options.hugeMiB * 1024 * 1024) }] }));
  }
  return server;
}

/**
 * Wrap a server transport so that the garbage tool's answer goes out malformed (content not a
 * list), and the forecast of `Nowhere` with structured content its output schema refuses.
 */
export function garbling(transport) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const content = message?.result?.content;
    if (Array.isArray(content) && content[0]?.text === BROKEN_OUTPUT_MARK) {
      return send({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'warm' }], structuredContent: { celsius: 'warm' } } }, options);
    }
    if (Array.isArray(content) && content[0]?.text === GARBAGE_MARK) {
      return send({ jsonrpc: '2.0', id: message.id, result: { content: 42, isError: 'maybe' } }, options);
    }
    return send(message, options);
  };
  return transport;
}
