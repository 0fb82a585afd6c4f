#!/usr/bin/env node
// A streamable-HTTP MCP server (written with @modelcontextprotocol/sdk) with the look-up tools,
// on 127.0.0.1, stateless (a fresh server per request). Prints its URL as its first stdout line.
//   node http-server.mjs [PORT]
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { garbling, lookupServer } from './lookup-tools.mjs';

const http = createServer(async (req, res) => {
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const server = lookupServer('http-lookup');
  const transport = garbling(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true }));
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch (err) {
    if (!res.headersSent) res.writeHead(500).end(String(err));
  }
});
http.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const { port } = http.address();
  process.stdout.write(`http://127.0.0.1:${port}/mcp\n`);
});
process.on('SIGTERM', () => http.close(() => process.exit(0)));
