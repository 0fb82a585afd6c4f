import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSuite, runEpisode, type SwarmTask, type ToolProvider } from '../src/index.js';
import { openRunTools } from '../src/tools/run-tools.js';
import { orchestratorFrom, settingsWith, toolTexts, type Call } from './support.js';

// The MCP project's reference servers, installed from npm (dev dependencies), started as a user
// starts them: their bin scripts under node, over stdio, and server-everything over streamable HTTP.
const require = createRequire(import.meta.url);
const binOf = (name: string): string => join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');
const stdio = (name: string, ...args: string[]): string => ['stdio:' + JSON.stringify(process.execPath), JSON.stringify(binOf(name)), ...args.map((a) => JSON.stringify(a))].join(' ');

const [task] = generateSuite('wide', { tasks: 1, seed: 3, entities: 2, attributes: 1 }) as [SwarmTask];

/** An orchestrator that makes `calls` in its first reply, then answers with what the tools returned; the record, the transcript and the tool results. */
async function callTools(providers: readonly ToolProvider[], calls: readonly Call[]) {
  const orchestrator = orchestratorFrom((n, options) => (n === 0 ? calls : toolTexts(options).join(' | ')));
  const out = await runEpisode(task, settingsWith({ orchestrator, toolProviders: providers, toolTimeoutMs: 20_000 }));
  // The tool results as the transcript (the rollout line's messages) holds them.
  const results = out.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  return { record: out.record, texts: out.answer.split(' | '), results };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('reference-mcp');
  await writeFile(join(dir.path, 'notes.txt'), 'the launch is on Tuesday\n');
});
afterAll(async () => {
  await dir?.remove();
});

describe('the MCP reference servers from npm, through a scripted orchestrator', () => {
  it('server-filesystem (stdio): reads a real file, its result (checked against the tool\'s outputSchema) reaches the record', async () => {
    const tools = await openRunTools({ mcp: [stdio('server-filesystem', dir.path)] });
    try {
      const names = tools.providers[0]?.tools.map((t) => t.name) ?? [];
      expect(names).toEqual(expect.arrayContaining(['read_text_file', 'list_directory']));
      const { texts, record, results } = await callTools(tools.providers, [['read_text_file', { path: join(dir.path, 'notes.txt') }], ['list_directory', { path: dir.path }]]);
      expect(texts[0]).toBe('the launch is on Tuesday\n');
      expect(texts[1]).toContain('[FILE] notes.txt');
      expect(record.orchestrator_tool_calls).toBe(2);
      expect(record.tool_errors).toBe(0);
      expect(results).toEqual(['the launch is on Tuesday\n', expect.stringContaining('[FILE] notes.txt')]);
    } finally {
      await tools.close();
    }
  }, 60_000);

  it('server-memory (stdio, its file named by a forwarded variable): an entity created in one episode is found in the next', async () => {
    const environment = { ...process.env, MEMORY_FILE_PATH: join(dir.path, 'memory.jsonl') };
    const tools = await openRunTools({ mcp: [stdio('server-memory')], mcpEnv: ['MEMORY_FILE_PATH'], environment });
    try {
      const created = await callTools(tools.providers, [['create_entities', { entities: [{ name: 'Ada Lovelace', entityType: 'person', observations: ['wrote the first program'] }] }]]);
      expect(created.record.tool_errors).toBe(0);
      const found = await callTools(tools.providers, [['search_nodes', { query: 'Ada' }]]);
      expect(found.texts[0]).toContain('wrote the first program');
      expect(found.record.tool_errors).toBe(0);
    } finally {
      await tools.close();
    }
  }, 60_000);

  it('server-everything over stdio and over streamable HTTP: echo and get-sum', async () => {
    const port = await freePort();
    const http: ChildProcess = spawn(process.execPath, [binOf('server-everything'), 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      let said = '';
      await new Promise<void>((resolve, reject) => {
        http.stderr?.on('data', (d: Buffer) => {
          said += d.toString();
          if (said.includes('listening on port')) resolve();
        });
        http.once('exit', () => reject(new Error(`server-everything exited: ${said}`)));
      });
      for (const server of [stdio('server-everything'), `http://127.0.0.1:${port}/mcp`]) {
        const tools = await openRunTools({ mcp: [server] });
        try {
          const { texts, record, results } = await callTools(tools.providers, [['echo', { message: 'hello parl' }], ['get-sum', { a: 2, b: 40 }]]);
          expect(results[0], server).toBe('Echo: hello parl');
          expect(texts[0], server).toBe('Echo: hello parl');
          expect(texts[1], server).toContain('42');
          expect(record.tool_errors).toBe(0);
        } finally {
          await tools.close();
        }
      }
    } finally {
      const gone = once(http, 'exit');
      http.kill('SIGTERM');
      await gone;
    }
  }, 90_000);
});
