/**
 * `parl worker` and its API key (issue 29): a worker sends its key only to endpoints it was told
 * to trust (`--allow-endpoint`); a job naming another endpoint is not run, fails with a named
 * error the coordinator reports, and the worker's log says which job asked. The queue's URL can
 * come from the environment (`--queue env:PARL_QUEUE_URL`), so it is not in the process list.
 * Real Redis, a real worker process, scripted OpenAI-compatible endpoints over real HTTP.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startChatEndpoint, type ChatEndpoint } from '@parl/test-support/chat-endpoint';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltBin } from './support/bin.js';
import { parl } from './support/memory-io.js';
import { startWorker, type WorkerProcess } from './support/worker-process.js';

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
if (!HAVE_REDIS) console.warn(`parl worker trust tests skipped: ${redisLookup.skipReason}`);

describe.skipIf(!HAVE_REDIS)('parl worker --allow-endpoint and --queue env:NAME', () => {
  let dir: TempDir | undefined;
  let trusted: ChatEndpoint | undefined;
  let other: ChatEndpoint | undefined;
  let redis: RedisServer | undefined;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    requireBuiltBin();
    dir = await makeTempDir('cli-worker-trust');
    trusted = await startChatEndpoint();
    other = await startChatEndpoint();
    redis = await startRedisServer(redisLookup.path as string);
    const env: NodeJS.ProcessEnv = { ...process.env, PARL_API_KEY: 'sk-worker-secret', PARL_QUEUE_URL: redis.url };
    delete env['OPENAI_API_KEY'];
    worker = startWorker(['--queue', 'env:PARL_QUEUE_URL', '--queue-name', 'trust', '--threads', '2', '--allow-endpoint', trusted.baseURL], { env });
    await worker.waitFor(/goes only to/);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await redis?.close();
    await trusted?.close();
    await other?.close();
    await dir?.remove();
    delete process.env['PARL_QUEUE_URL'];
  });

  it('the worker took its queue from the environment: the URL is not on its command line', () => {
    expect(worker?.child.spawnargs.join(' ')).not.toContain((redis as RedisServer).url);
    expect(worker?.log()).toMatch(/^parl worker: taking sweep runs and swarm rollouts from redis:\/\/127\.0\.0\.1:\d+, queue trust, 2 at a time;/);
    expect(worker?.log()).toContain(`parl worker: PARL_API_KEY goes only to endpoints under ${(trusted as ChatEndpoint).baseURL}`);
  });

  it('a job naming an endpoint the worker does not trust is not run: no request, no key, a named error naming the job', async () => {
    process.env['PARL_QUEUE_URL'] = (redis as RedisServer).url;
    const r = await parl([
      'swarm', 'run', '--base-url', (other as ChatEndpoint).baseURL, '--model', 'm', '--subagents', 'scripted', '--tasks', '1',
      '--queue', 'env:PARL_QUEUE_URL', '--queue-name', 'trust', '--out', join((dir as TempDir).path, 'untrusted.jsonl'),
    ]);
    expect(r.code).toBe(1);
    // One line: the refusal, naming the task and the rollout once (no count of 1, no rerun hint).
    const other_ = (other as ChatEndpoint).baseURL;
    const trusted_ = (trusted as ChatEndpoint).baseURL;
    expect(r.stderr).toBe(
      `parl swarm run: task wide-s1-0 failed (wide-s1-0/rollout-0): the worker says: the job names the endpoint ${other_}, which this worker does not trust with its API key (it trusts ${trusted_}): it was not run and no key was sent\n`,
    );
    expect((other as ChatEndpoint).requests).toHaveLength(0);
    expect(worker?.log()).toContain(`parl worker: rollout wide-s1-0/0 failed: the job names the endpoint ${other_}, which this worker does not trust with its API key`);
  }, 60_000);

  it('a job on a trusted endpoint runs, with the worker\'s key', async () => {
    process.env['PARL_QUEUE_URL'] = (redis as RedisServer).url;
    const out = join((dir as TempDir).path, 'trusted.jsonl');
    const r = await parl([
      'swarm', 'run', '--base-url', (trusted as ChatEndpoint).baseURL, '--model', 'm', '--subagents', 'scripted', '--tasks', '1',
      '--queue', 'env:PARL_QUEUE_URL', '--queue-name', 'trust', '--out', out,
    ]);
    expect(r.stderr).toMatch(/^parl swarm run: 1 episodes in /);
    expect(r.code).toBe(0);
    expect((await readFile(out, 'utf8')).trim().split('\n')).toHaveLength(1);
    expect((trusted as ChatEndpoint).requests.map((q) => q.authorization)).toEqual(['Bearer sk-worker-secret']);
  }, 60_000);

  it('--queue env:NAME with NAME unset is one line naming the flag', async () => {
    delete process.env['PARL_QUEUE_URL_MISSING'];
    const r = await parl(['swarm', 'run', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--queue', 'env:PARL_QUEUE_URL_MISSING']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/--queue.*PARL_QUEUE_URL_MISSING is not set/);
  });
});

describe('parl worker --allow-endpoint and --model-folder values', () => {
  it('are checked before the worker takes a job: a bad one is one line naming the flag and the value, exit 2, no queue contacted', async () => {
    const dir = await makeTempDir('worker-flags');
    try {
      const file = join(dir.path, 'not-a-folder.txt');
      await writeFile(file, 'x');
      // Port 9 has no Redis: a worker that got that far would fail on the queue, not on the flag.
      const worker = ['worker', '--queue', 'redis://127.0.0.1:9'];
      const missing = await parl([...worker, '--model-folder', dir.path, '--model-folder', join(dir.path, 'models')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr.trim()).toBe(`parl worker: --model-folder must be a folder this machine has (nothing is at that path), got ${JSON.stringify(join(dir.path, 'models'))}`);
      const notFolder = await parl([...worker, '--model-folder', file]);
      expect(notFolder.code).toBe(2);
      expect(notFolder.stderr.trim()).toBe(`parl worker: --model-folder must be a folder this machine has (that path is a file), got ${JSON.stringify(file)}`);
      const endpoint = await parl([...worker, '--allow-endpoint', 'http://10.0.0.9:8000/v1', '--allow-endpoint', 'ftp://10.0.0.9/v1']);
      expect(endpoint.code).toBe(2);
      expect(endpoint.stderr.trim()).toBe("error: option '--allow-endpoint <URL-PREFIX>' argument 'ftp://10.0.0.9/v1' is invalid. Expected an http(s) URL prefix such as https://api.example.com/v1 (no query or fragment).");
    } finally {
      await dir.remove();
    }
  });
});
