/**
 * `parl swarm run --queue` with a real `parl worker` process, a real Redis and real inference
 * (the loopback OpenAI-compatible endpoint of test support, node-llama-cpp on a tiny GGUF the test
 * writes): the worker takes the rollouts by their job name, runs them on the endpoint the job
 * names, and the coordinator writes the lines — with `--logprobs`, the orchestrator's token ids
 * and log-probabilities came through the queue too.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startLocalLlmServer, type LocalLlmServer } from '@parl/test-support/local-llm/server';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltBin } from './support/bin.js';
import { parl } from './support/memory-io.js';
import { startWorker, type WorkerProcess } from './support/worker-process.js';

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
if (!HAVE_REDIS) console.warn(`parl swarm run --queue tests skipped: ${redisLookup.skipReason}`);

describe.skipIf(!HAVE_REDIS)('parl swarm run --queue with parl worker', () => {
  let dir: TempDir | undefined;
  let server: LocalLlmServer | undefined;
  let redis: RedisServer | undefined;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    requireBuiltBin();
    dir = await makeTempDir('cli-swarm-queue');
    const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
    // The suites' prompts with four tools' schemas pass the tiny model's 2048 tokens (one per byte).
    server = await startLocalLlmServer({ modelPath: model.path, contextSize: 8192 });
    redis = await startRedisServer(redisLookup.path as string);
    worker = startWorker(['--queue', redis.url, '--queue-name', 'cli-swarm', '--threads', '2']);
    await worker.waitFor(/taking/);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await redis?.close();
    await server?.close();
    await dir?.remove();
  });

  it('the worker runs the rollouts on the endpoint; the lines, with token ids and log-probabilities, come back to --out', async () => {
    expect(worker?.log()).toMatch(/^parl worker: taking sweep runs and swarm rollouts from redis:\/\/127\.0\.0\.1:\d+, queue cli-swarm, 2 at a time;/);
    const out = join((dir as TempDir).path, 'rollouts.jsonl');
    const r = await parl([
      'swarm', 'run', '--base-url', (server as LocalLlmServer).baseURL, '--model', (server as LocalLlmServer).modelName, '--subagents', 'scripted',
      '--suite', 'deep', '--tasks', '1', '--group-size', '2', '--limits', 'browsecomp', '--logprobs',
      '--out', out, '--queue', (redis as RedisServer).url, '--queue-name', 'cli-swarm',
    ]);
    expect(r.stderr).toMatch(/^parl swarm run: 2 episodes in /);
    expect(r.code).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['group_id'], l['sample']])).toEqual([['deep-s1-0', 0], ['deep-s1-0', 1]]);
    for (const line of lines) {
      const replies = (line['messages'] as { role: string; token_ids?: unknown[]; logprobs?: { content: unknown[] } }[]).filter((m) => m.role === 'assistant');
      expect(replies.length).toBeGreaterThan(0);
      for (const reply of replies) {
        expect(reply.token_ids?.length).toBeGreaterThan(0);
        expect(reply.logprobs?.content).toHaveLength(reply.token_ids?.length ?? -1);
      }
    }
    expect(worker?.log()).toContain('parl worker: rollout deep-s1-0/0 started');
    expect(worker?.log()).toMatch(/parl worker: rollout deep-s1-0\/1 finished in /);
  }, 240_000);
});
