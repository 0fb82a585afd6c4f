import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { startLocalLlmServer, type LocalLlmServer } from '@parl/test-support/local-llm/server';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';
import { startHttpMcpServer, stdioMcpSpec, type HttpMcpServer } from '@parl/test-support/mcp-servers';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';

let dir: TempDir;
let server: LocalLlmServer;
let http: HttpMcpServer;

beforeAll(async () => {
  dir = await makeTempDir('cli-swarm-tools');
  const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
  server = await startLocalLlmServer({ modelPath: model.path, contextSize: 8192 });
  http = await startHttpMcpServer();
}, 60_000);
afterAll(async () => {
  await http?.stop();
  await server?.close();
  await dir?.remove();
});

const toolsModule = fileURLToPath(new URL('../../swarm/test/fixtures/tools-module.mjs', import.meta.url));
const throwingModule = fileURLToPath(new URL('../../swarm/test/fixtures/throwing-tools.mjs', import.meta.url));

describe('parl swarm run with --tools and --mcp', () => {
  it('two MCP servers offering the same tool name are one line before any episode; a tools module with an HTTP MCP server runs end to end, records carry tool_errors', async () => {
    const out = join(dir.path, 'tools.jsonl');
    const r = await parl(['swarm', 'run', '--base-url', server.baseURL, '--model', server.modelName, '--subagents', 'scripted', '--suite', 'deep', '--tasks', '1',
      '--limits', 'browsecomp', '--tools', toolsModule, '--mcp', stdioMcpSpec(), '--mcp', http.url, '--tools-for', 'orchestrator', '--tool-timeout', '5', '--out', out]);
    // Two servers offer the same tool names: named, before any episode, nothing written.
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/both offer "capital"/);
    await expect(readFile(out, 'utf8')).rejects.toThrow();
    const ok = await parl(['swarm', 'run', '--base-url', server.baseURL, '--model', server.modelName, '--subagents', 'scripted', '--suite', 'deep', '--tasks', '1',
      '--limits', 'browsecomp', '--tools', toolsModule, '--mcp', http.url, '--tool-timeout', '5', '--out', out]);
    expect(ok.stderr).toMatch(/^parl swarm run: 1 episodes in /);
    expect(ok.code).toBe(0);
    const [line] = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(typeof line?.['tool_errors']).toBe('number');
  }, 240_000);

  it('an MCP server that does not start, or a tools module that throws on import, is one line naming the flag before any episode', async () => {
    const failing = await parl(['swarm', 'run', '--base-url', server.baseURL, '--model', server.modelName, '--tasks', '1', '--mcp', stdioMcpSpec('--fail-start')]);
    expect(failing.code).toBe(2);
    expect(failing.stderr.trim().split('\n').filter((l) => l.startsWith('parl') || l.includes('--mcp'))).toHaveLength(1);
    expect(failing.stderr).toMatch(/--mcp must be an MCP server that starts and lists its tools/);
    const throwing = await parl(['swarm', 'run', '--base-url', server.baseURL, '--model', server.modelName, '--tasks', '1', '--tools', throwingModule]);
    expect(throwing.code).toBe(2);
    expect(throwing.stderr.trim().split('\n')).toHaveLength(1);
    expect(throwing.stderr).toContain(`--tools must be a module of AI SDK tools that imports cleanly; importing ${throwingModule} failed: Error: the search API key is not set`);
    const bad = await parl(['swarm', 'run', '--base-url', server.baseURL, '--model', server.modelName, '--mcp', 'ftp://x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--mcp/);
  }, 120_000);
});
