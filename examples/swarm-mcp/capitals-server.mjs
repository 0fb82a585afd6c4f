#!/usr/bin/env node
// An MCP server written with @modelcontextprotocol/sdk: one tool, `capital`, over stdio or
// streamable HTTP. This is the shape of any tool server you bring to `parl swarm run --mcp`.
//
//   node capitals-server.mjs            serve on stdin/stdout   (--mcp 'stdio:node capitals-server.mjs')
//   node capitals-server.mjs --http     serve on 127.0.0.1, print the URL   (--mcp http://127.0.0.1:PORT/mcp)
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const CAPITALS = { France: 'Paris', Japan: 'Tokyo', Kenya: 'Nairobi', Peru: 'Lima' };

function capitalsServer() {
  const server = new McpServer({ name: 'capitals', version: '1.0.0' });
  server.registerTool('capital', {
    description: 'The capital city of a country',
    inputSchema: { country: z.string().describe('The country, e.g. France') },
  }, async ({ country }) => {
    const city = CAPITALS[country];
    return city === undefined
      ? { content: [{ type: 'text', text: `no capital known for ${country}` }], isError: true }
      : { content: [{ type: 'text', text: city }] };
  });
  return server;
}

if (!process.argv.includes('--http')) {
  await capitalsServer().connect(new StdioServerTransport());
} else {
  // Stateless streamable HTTP: a fresh server and transport per request.
  const http = createServer(async (req, res) => {
    if (req.url !== '/mcp') return void res.writeHead(404).end();
    const server = capitalsServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`));
  process.on('SIGTERM', () => process.exit(0));
}
