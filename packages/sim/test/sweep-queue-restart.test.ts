/**
 * `runSweep` through a BullMQ queue in a real Redis (`redis-server` from Debian, started by the
 * test on a loopback port, no persistence) that the test kills and starts again EMPTY in the
 * middle of the sweep (issue 24, item 8): the sweep notices, puts what is not complete back on
 * the queue, finishes every run, and loses none already written.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { runSweep, type QueueRunnerEvent, type SweepRunEvent } from '../src/index.js';
import { createQueueRunner, startQueueWorker, type QueueWorkerHandle } from '../src/queue.js';
import { getPreset, resolveTrainingConfig } from '../src/index.js';
import { runIdOf } from '../src/internal/runs/run-id.js';

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
if (!HAVE_REDIS) console.warn(`sweep queue restart test skipped: ${redisLookup.skipReason}`);

const TINY_CONFIG = { tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } };

describe.skipIf(!HAVE_REDIS)('a sweep through a Redis that restarts empty mid-sweep', () => {
  let redis: RedisServer | undefined;
  let worker: QueueWorkerHandle | undefined;
  let temp: TempDir | undefined;
  afterEach(async () => {
    await worker?.close();
    await redis?.close();
    redis = undefined;
    await temp?.remove();
  });

  it('re-queues what is not complete, finishes every run, and keeps the runs already written', { timeout: 240_000 }, async () => {
    temp = await makeTempDir('sweep-restart');
    redis = await startRedisServer(redisLookup.path as string);
    const url = redis.url;
    const debug = process.env['PARL_TEST_DEBUG'] === undefined ? () => undefined : (x: unknown) => console.error(new Date().toISOString(), JSON.stringify(x));
    worker = startQueueWorker({ url, name: 'restart-test', threads: 1, stalledAfterSeconds: 2, onEvent: debug });
    const out = join(temp.path, 'sweep');
    const queueEvents: QueueRunnerEvent[] = [];
    const finished: SweepRunEvent[] = [];
    let restarted: Promise<void> | undefined;
    let firstWritten: { dir: string; mtime: number } | undefined;
    const outcome = await runSweep({
      grid: { preset: 'parl', steps: 3, seeds: [1, 2, 3], config: TINY_CONFIG, grid: { lambda1: ['linear:0.3:0:2', 'constant:0'] } },
      out,
      queue: url,
      queueName: 'restart-test',
      onQueueEvent: (e) => {
        debug(e);
        queueEvents.push(e);
      },
      onRun: (e) => {
        debug(e);
        if (e.kind !== 'finished') return;
        finished.push(e);
        if (restarted === undefined) {
          const dir = join(out, 'runs', e.runId);
          firstWritten = { dir, mtime: statSync(join(dir, 'summary.json')).mtimeMs };
          // Redis dies and comes back with nothing: the queue, its jobs, the sweep's sentinel all gone.
          restarted = (async () => {
            await redis?.restart({ empty: true });
          })();
        }
      },
    });
    await restarted;
    expect(outcome.failed).toEqual([]);
    expect(outcome.runs).toBe(6);
    expect(outcome.rows).toHaveLength(6);
    expect(queueEvents.some((e) => e.kind === 'redis-lost')).toBe(true);
    expect(new Set(finished.map((e) => e.runId)).size).toBe(6);
    expect(readFileSync(join(out, 'results.csv'), 'utf8').trim().split('\n')).toHaveLength(7);
    // The run written before the restart was neither lost nor rewritten.
    expect(firstWritten).toBeDefined();
    expect(statSync(join(firstWritten!.dir, 'summary.json')).mtimeMs).toBe(firstWritten!.mtime);
  });

  it('never waits for ever in silence: a Redis that stays away is reported, then the waiting runs fail by name', { timeout: 60_000 }, async () => {
    redis = await startRedisServer(redisLookup.path as string);
    const url = redis.url;
    const events: QueueRunnerEvent[] = [];
    const runner = createQueueRunner(url, { name: 'away-test', pollMs: 100, unreachableLimitMs: 3_000, onEvent: (e) => events.push(e) });
    const config = resolveTrainingConfig({ steps: 1, ...TINY_CONFIG }, getPreset('parl'));
    const waiting = runner.run({ runId: runIdOf(config), config });
    waiting.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500)); // queued; no worker takes it
    await redis.close();
    await expect(waiting).rejects.toThrow(new RegExp(`^Redis at ${url.replace(/[/.]/g, '\\$&')} did not answer for [3-9] s: run the same parl sweep again to resume once it is back$`));
    expect(events.some((e) => e.kind === 'redis-unreachable')).toBe(true);
    await runner.close();
  });
});
