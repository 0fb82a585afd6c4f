import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';
import { writeTinyGrid } from './support/sweep-grid.js';
import { startWorker, type WorkerProcess } from './support/worker-process.js';
import { useTempDirs } from '@parl/test-support/temp-dir';

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
const SKIP_REASON = redisLookup.skipReason ?? '';
if (!HAVE_REDIS) console.warn(`sweep queue tests skipped: ${SKIP_REASON}`);

const tempDir = useTempDirs('cli');

const startQueueWorker = (url: string): WorkerProcess => startWorker(['--queue', url, '--threads', '1', '--stalled-after', '2']);

/** results.csv without its last column (wall_s, a time). */
const withoutWall = (csv: string): string[] => csv.trim().split('\n').map((l) => l.slice(0, l.lastIndexOf(',')));

describe.skipIf(!HAVE_REDIS)(HAVE_REDIS ? 'parl sweep --queue with a real Redis' : `parl sweep --queue with a real Redis (skipped: ${SKIP_REASON})`, () => {
  let redis: RedisServer | undefined;
  let url = '';
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    redis = await startRedisServer(redisLookup.path as string);
    url = redis.url;
    const client = new Redis(url, { maxRetriesPerRequest: null });
    try {
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
    }
  }, 30_000);

  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    await redis?.close();
  });

  it('two workers, one killed mid-run: its run is retried by the other, none is counted twice, and the results equal a local sweep\'s', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const grid = writeTinyGrid(dir, 6);
    const local = join(dir, 'local');
    expect((await parl(['sweep', '--grid', grid, '--out', local, '--quiet', '--threads', '2'])).code).toBe(0);

    const a = startQueueWorker(url);
    workers.push(a.child);
    await a.waitFor(/parl worker: taking sweep runs and swarm rollouts from redis:/);
    const queued = join(dir, 'queued');
    const sweep = parl(['sweep', '--grid', grid, '--out', queued, '--queue', url]);
    const [, killedRun] = (await a.waitFor(/run ([0-9a-f]{16}) started/)) as unknown as [string, string];
    a.child.kill('SIGKILL');
    const b = startQueueWorker(url);
    workers.push(b.child);

    const result = await sweep;
    expect(result.stderr).toContain('parl sweep: 4 runs, 0 already complete; training on ');
    expect(result.code).toBe(0);
    expect(a.log()).not.toContain(`run ${killedRun} finished`);
    expect(b.log()).toContain(`run ${killedRun} started`);
    expect(b.log()).toContain(`run ${killedRun} finished`);

    // Every run once, with the same numbers as the local sweep, and byte-identical summaries.
    expect(withoutWall(readFileSync(join(queued, 'results.csv'), 'utf8'))).toEqual(withoutWall(readFileSync(join(local, 'results.csv'), 'utf8')));
    const runs = (JSON.parse(readFileSync(join(local, 'sweep.json'), 'utf8')) as { runs: { run_id: string }[] }).runs.map((r) => r.run_id);
    expect(new Set(runs).size).toBe(4);
    for (const id of runs) {
      expect(readFileSync(join(queued, 'runs', id, 'summary.json'), 'utf8')).toBe(readFileSync(join(local, 'runs', id, 'summary.json'), 'utf8'));
      expect(readFileSync(join(queued, 'runs', id, 'metrics.jsonl'), 'utf8')).toBe(readFileSync(join(local, 'runs', id, 'metrics.jsonl'), 'utf8'));
    }
    const finishedLines = (b.log() + a.log()).match(/run [0-9a-f]{16} finished/g) ?? [];
    expect(finishedLines).toHaveLength(4);

    // The sweep removed its jobs from Redis once their folders were written; resuming trains nothing.
    const client = new Redis(url, { maxRetriesPerRequest: null });
    try {
      for (const id of runs) expect(await client.exists(`bull:parl-sweep:${id}`)).toBe(0);
    } finally {
      client.disconnect();
    }
    const again = await parl(['sweep', '--grid', grid, '--out', queued, '--queue', url, '--json', '--quiet']);
    expect(JSON.parse(again.stdout)).toMatchObject({ runs: 4, trained: 0, skipped: 4 });
  });
});
