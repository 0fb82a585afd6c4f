/**
 * `parl worker --mcp` with the credentials' flags (issue 37): the worker takes the same MCP rows
 * as `parl swarm run` (`--mcp-header`, `--mcp-env`, `--mcp-client-id`, `--mcp-client-secret`),
 * so a worker serves rollouts whose agents call an HTTP MCP server behind a bearer token, the
 * token only in the worker's environment: it is in no job, line, span, log line or error. Real
 * Redis, a real worker process, the test support's HTTP MCP server and scripted chat endpoint.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startChatEndpoint, type ChatEndpoint } from '@parl/test-support/chat-endpoint';
import { startHttpMcpServer, type HttpMcpServer } from '@parl/test-support/mcp-servers';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltBin, runBin } from './support/bin.js';
import { parl } from './support/memory-io.js';
import { startWorker, type WorkerProcess } from './support/worker-process.js';

const TOKEN = 'worker-mcp-secret-41c9e0';

/** The environment of a process that holds no API key (so no --allow-endpoint is needed) and, with `token`, the MCP token. */
function workerEnv(token: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['PARL_API_KEY'];
  delete env['OPENAI_API_KEY'];
  if (token !== undefined) env['PARL_WORKER_MCP_TOKEN'] = token;
  return env;
}

describe('parl worker takes the MCP credentials\' flags', () => {
  it('an unset env:VAR in --mcp-header is one line naming the flag, before the worker takes a job', () => {
    const r = runBin(['worker', '--queue', 'redis://127.0.0.1:9', '--mcp', 'http://127.0.0.1:9/mcp', '--mcp-header', 'Authorization: Bearer env:PARL_WORKER_MCP_UNSET'], { env: workerEnv(undefined) });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('parl worker: --mcp-header must be env:VAR naming an environment variable that is set (PARL_WORKER_MCP_UNSET is not set or empty), got "Authorization: env:PARL_WORKER_MCP_UNSET"');
  });

  it('a literal --mcp-client-secret is refused without being shown', () => {
    const r = runBin(['worker', '--queue', 'redis://127.0.0.1:9', '--mcp-client-id', 'c', '--mcp-client-secret', TOKEN], { env: workerEnv(undefined) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^parl worker: --mcp-client-secret must be env:VAR/);
    expect(r.stderr).not.toContain(TOKEN);
  });
});

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
if (!HAVE_REDIS) console.warn(`parl worker --mcp tests skipped: ${redisLookup.skipReason}`);

describe.skipIf(!HAVE_REDIS)('parl worker --mcp URL --mcp-header \'Authorization: Bearer env:VAR\'', () => {
  let dir: TempDir | undefined;
  let server: HttpMcpServer | undefined;
  let endpoint: ChatEndpoint | undefined;
  let redis: RedisServer | undefined;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    requireBuiltBin();
    dir = await makeTempDir('cli-worker-mcp');
    server = await startHttpMcpServer(['--bearer-env', 'PARL_WORKER_MCP_TOKEN'], workerEnv(TOKEN));
    // The orchestrator calls the MCP server's capital tool when it is offered, then answers.
    endpoint = await startChatEndpoint((request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : (request.tools ?? []).some((t) => t.function.name === 'capital') ? { toolCalls: [['capital', { country: 'Kenya' }]] } : { text: 'no tool' },
    );
    redis = await startRedisServer(redisLookup.path as string);
    worker = startWorker(['--queue', redis.url, '--queue-name', 'worker-mcp', '--threads', '1', '--mcp', server.url, '--mcp-header', 'Authorization: Bearer env:PARL_WORKER_MCP_TOKEN'], { env: workerEnv(TOKEN) });
    await worker.waitFor(/taking/);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await redis?.close();
    await endpoint?.close();
    await server?.stop();
    await dir?.remove();
  });

  it('the worker started with the token only in its environment', () => {
    expect(worker?.log()).toMatch(/parl worker: taking sweep runs and swarm rollouts from /);
    expect(worker?.child.spawnargs.join(' ')).not.toContain(TOKEN);
  });

  it('a rollout on the worker calls the MCP tool behind the token; its result is in the line; the token is in no job, line, span or log line', async () => {
    const out = join((dir as TempDir).path, 'run.jsonl');
    const spans = join((dir as TempDir).path, 'spans.jsonl');
    const r = await parl([
      'swarm', 'run', '--base-url', (endpoint as ChatEndpoint).baseURL, '--model', 'm', '--subagents', 'scripted', '--tasks', '1', '--tools-for', 'orchestrator',
      '--queue', (redis as RedisServer).url, '--queue-name', 'worker-mcp', '--out', out, '--spans', spans,
    ]);
    expect(r.stderr).toMatch(/^parl swarm run: 1 episodes in /);
    expect(r.code).toBe(0);
    const lines = await readFile(out, 'utf8');
    const line = JSON.parse(lines.trim()) as { messages: { role: string; content: unknown }[]; tool_errors?: number };
    expect(line.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['Nairobi']);
    // The job (what the endpoint saw of it: the task and the tool's result) carries no token either.
    const requests = JSON.stringify((endpoint as ChatEndpoint).requests);
    expect(requests).toContain('Nairobi');
    const spansText = await readFile(spans, 'utf8');
    expect(spansText).toContain('Nairobi');
    for (const text of [lines, spansText, requests, r.stdout, r.stderr, worker?.log() ?? '']) expect(text).not.toContain(TOKEN);
  }, 60_000);
});
