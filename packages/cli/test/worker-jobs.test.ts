/**
 * `parl worker` takes every job of the shared queue (`@parl/io/queue`) by its name: a worker
 * installed without `@parl/swarm` (npm's layout of `npm install @parl/cli @parl/sim`, built from
 * this checkout) still trains sweep runs, and fails a swarm rollout job at once with the one line
 * that says how to install what it needs. A real `parl worker` process, a real Redis.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createQueueRunner } from '@parl/io/queue';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltBin } from './support/bin.js';
import { installCli } from './support/install-layout.js';
import { parl } from './support/memory-io.js';
import { startWorker, type WorkerProcess } from './support/worker-process.js';

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
if (!HAVE_REDIS) console.warn(`parl worker job tests skipped: ${redisLookup.skipReason}`);

/** The environment of a user's shell: no NODE_PATH (pnpm's script runner sets one that reaches every workspace package). */
const { NODE_PATH: _nodePath, ...env } = process.env;

const SWARM_HINT = 'parl worker needs @parl/swarm, which is not installed: npm install @parl/swarm (the swarm runtime; it brings the Vercel AI SDK)';

describe('parl worker and the queue flags, without Redis', () => {
  it('parl swarm run --queue takes only a Redis URL (exit 2, one line)', async () => {
    const r = await parl(['swarm', 'run', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--queue', 'http://127.0.0.1:6379']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: option '--queue <URL>' argument 'http://127.0.0.1:6379' is invalid. Expected a Redis URL: redis://HOST[:PORT][/DB] or rediss://….\n");
  });

  it('parl swarm run --queue-name needs --queue (exit 2, one line)', async () => {
    const r = await parl(['swarm', 'run', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--queue-name', 'mine']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('parl swarm run: --queue-name must be used with --queue, got "mine"\n');
  });

  it('a worker with neither @parl/sim nor @parl/swarm says what to install (exit 1)', () => {
    requireBuiltBin();
    const root = mkdtempSync(join(tmpdir(), 'parl-cli-bare-'));
    try {
      const bin = installCli(root);
      const r = spawnSync(process.execPath, [bin, 'worker', '--queue', 'redis://127.0.0.1:1'], { encoding: 'utf8', env });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe('parl worker: parl worker needs @parl/sim (sweep runs) or @parl/swarm (swarm rollouts), and neither is installed: npm install @parl/sim, or npm install @parl/swarm\n');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!HAVE_REDIS)('parl worker installed without @parl/swarm', () => {
  let redis: RedisServer | undefined;
  let root = '';
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    requireBuiltBin();
    redis = await startRedisServer(redisLookup.path as string);
    root = mkdtempSync(join(tmpdir(), 'parl-cli-no-swarm-'));
    const bin = installCli(root, ['@parl/sim']);
    worker = startWorker(['--queue', redis.url, '--queue-name', 'no-swarm', '--threads', '1'], { env, bin });
    await worker.waitFor(/taking/);
  }, 90_000);

  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await redis?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('fails a swarm rollout job at once with the install hint, and says it takes sweep runs only', { timeout: 60_000 }, async () => {
    expect(worker?.log()).toMatch(/^parl worker: taking sweep runs from redis:\/\/127\.0\.0\.1:\d+, queue no-swarm, 1 at a time;/);
    const runner = createQueueRunner<object, unknown>((redis as RedisServer).url, { name: 'no-swarm', jobName: 'swarm-rollout', onLost: 'fail', resumeHint: 'run it again', pollMs: 100 });
    try {
      await expect(runner.run('rollout-test', { options: { 'base-url': 'http://127.0.0.1:9/v1', model: 'm' }, task: 0, sample: 0, spans: false })).rejects.toThrow(
        new Error(SWARM_HINT),
      );
    } finally {
      await runner.close();
    }
    expect(worker?.log()).toContain(`parl worker: job rollout-test failed: ${SWARM_HINT}\n`);
  });
});
