/**
 * A stdio MCP server's message past the bound, whose JSON-RPC id is at neither end (a server that
 * writes its members in another order): the call it answers is the only one waiting — a call given
 * up before (its timeout sent `notifications/cancelled`) no longer counts — so that call fails at
 * once, named, and the server goes on serving. A raw JSON-lines server, as any language writes one.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@parl/test-support/temp-dir';
import { describe, expect, it } from 'vitest';
import { connectMcpClient } from '../src/index.js';
import { MAX_MCP_MESSAGE_BYTES } from '../src/tools/mcp-message-lines.js';

/** Answers initialize and tools/list; `hang` never; `huge` with its id in the middle of a message past the bound; `small` at once. */
const SERVER = `
const { createInterface } = require('node:readline');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const tool = (name) => ({ name, inputSchema: { type: 'object' } });
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } });
  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: { tools: [tool('hang'), tool('huge'), tool('small')] } });
  const name = m.params.name;
  if (name === 'hang') return;
  if (name === 'small') return send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'ok' }] } });
  const text = 'x'.repeat(${MAX_MCP_MESSAGE_BYTES} + 1024);
  process.stdout.write('{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"' + text.slice(0, 100) + '"}]},"id":' + m.id + ',"padding":"' + text + '"}\\n');
});
`;

describe('a stdio message past the bound, its id at neither end', () => {
  it('fails the only call waiting, not one given up before; the server goes on', async () => {
    const dir = await makeTempDir('mcp-stdio-bound');
    const file = join(dir.path, 'raw-server.cjs');
    await writeFile(file, SERVER);
    const connection = await connectMcpClient(`stdio:${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`);
    try {
      const { client } = connection;
      // Given up after 300 ms: the client sends notifications/cancelled for it.
      await expect(client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 300 })).rejects.toThrow(/timed out/i);
      const started = Date.now();
      await expect(client.callTool({ name: 'huge', arguments: {} }, undefined, { timeout: 20_000 })).rejects.toThrow(
        new RegExp(`the server's message was \\d+ bytes, more than the ${MAX_MCP_MESSAGE_BYTES} this client reads; it was not read`),
      );
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(await client.callTool({ name: 'small', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
    } finally {
      await connection.close();
      await dir.remove();
    }
  }, 60_000);
});
