#!/usr/bin/env node
// A stdio MCP server (written with @modelcontextprotocol/sdk) with the look-up tools.
//   node stdio-server.mjs              serve on stdin/stdout
//   node stdio-server.mjs --fail-start exit with an error before the handshake (a server that does not start)
//   node stdio-server.mjs --ignore-term ignore SIGTERM and stay up when stdin closes (a server that must be killed)
//   node stdio-server.mjs --huge MIB    also a tool `huge` whose result is MIB MiB of text (a message past a client's bound)
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
const huge = process.argv.indexOf('--huge');
await lookupServer('stdio-lookup', huge < 0 ? {} : { hugeMiB: Number(process.argv[huge + 1]) }).connect(garbling(new StdioServerTransport()));
