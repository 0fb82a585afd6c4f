#!/usr/bin/env node
// A stdio MCP server (written with @modelcontextprotocol/sdk) with the look-up tools.
//   node stdio-server.mjs              serve on stdin/stdout
//   node stdio-server.mjs --fail-start exit with an error before the handshake (a server that does not start)
//   node stdio-server.mjs --ignore-term ignore SIGTERM and stay up when stdin closes (a server that must be killed)
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { garbling, lookupServer } from './lookup-tools.mjs';

if (process.argv.includes('--fail-start')) {
  process.stderr.write('stdio-server: cannot start (asked to fail)\n');
  process.exit(1);
}
if (process.argv.includes('--ignore-term')) {
  process.on('SIGTERM', () => undefined);
  setInterval(() => undefined, 60_000);
}
await lookupServer('stdio-lookup').connect(garbling(new StdioServerTransport()));
