/**
 * `@parl/io/queue`, the job queue sweeps and swarm rollouts share, against a real Redis
 * (`redis-server` from Debian, started by the test on a loopback port) and BullMQ itself: the
 * worker loop picks a handler by job name, fails a job of an unknown name or an
 * `UnrunnableJobError` at once (no retry, whatever the job's attempts), retries one that throws
 * otherwise; the runner collects a job finished before it asked, and names a Redis it cannot reach.
 */
import { Queue } from 'bullmq';
import { ParlInputError } from '@parl/core';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkQueueUrl, createQueueRunner, QueueError, redisConnection, shownQueueUrl, startQueueWorker, UnrunnableJobError, type QueueWorkerEvent, type QueueWorkerHandle } from '../src/queue.js';

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
if (!HAVE_REDIS) console.warn(`job queue tests skipped: ${redisLookup.skipReason}`);

describe('queue URLs', () => {
  it('takes redis:// and rediss:// only, naming the flag, the value and what it expects', () => {
    expect(checkQueueUrl('redis://10.0.0.5:6379/2')).toBe('redis://10.0.0.5:6379/2');
    expect(checkQueueUrl('rediss://host')).toBe('rediss://host');
    for (const bad of ['http://10.0.0.5:6379', '10.0.0.5:6379', '']) {
      expect(() => checkQueueUrl(bad)).toThrow(ParlInputError);
      expect(() => checkQueueUrl(bad)).toThrow(`--queue must be a Redis URL: redis://HOST[:PORT][/DB] or rediss://…, got ${JSON.stringify(bad)}`);
    }
    expect(() => checkQueueUrl('ftp://x', 'queue')).toThrow(/^queue must be a Redis URL/);
  });

  it('never shows a password', () => {
    expect(shownQueueUrl('redis://:s3cret@10.0.0.5:6379')).toBe('redis://:***@10.0.0.5:6379');
    expect(shownQueueUrl('redis://user:s3cret@host/1')).toBe('redis://user:***@host/1');
    expect(shownQueueUrl('redis://host:6379/')).toBe('redis://host:6379');
  });
});

describe.skipIf(!HAVE_REDIS)('the job queue on a real Redis', () => {
  let redis: RedisServer | undefined;
  let worker: QueueWorkerHandle | undefined;
  const events: QueueWorkerEvent[] = [];
  let flaky = 0;
  const NAME = 'io-job-queue';

  beforeAll(async () => {
    redis = await startRedisServer(redisLookup.path as string);
    worker = startQueueWorker({
      url: redis.url,
      name: NAME,
      concurrency: 2,
      stalledAfterSeconds: 5,
      handlers: {
        double: { label: (data) => `double ${JSON.stringify(data)}`, run: async (data) => (data as { n: number }).n * 2 },
        missing: { label: (_data, id) => `missing ${id}`, run: () => Promise.reject(new UnrunnableJobError('needs a package: npm install it')) },
        flaky: {
          label: (_data, id) => `flaky ${id}`,
          run: async () => {
            if (++flaky === 1) throw new Error('the first attempt fails');
            return 'second';
          },
        },
      },
      onEvent: (e) => events.push(e),
    });
  }, 30_000);
  afterAll(async () => {
    await worker?.close();
    await redis?.close();
  });

  it('runs a job by its name and sends the result back; a job finished before the runner asked is collected without running again', async () => {
    const runner = createQueueRunner<{ n: number }, number>((redis as RedisServer).url, { name: NAME, jobName: 'double', onLost: 'fail', resumeHint: 'again', pollMs: 100 });
    try {
      expect(await runner.run('d-21', { n: 21 })).toBe(42);
      const started = events.filter((e) => e.kind === 'started').length;
      // Same id again: the finished job is still in Redis (not released), so it is collected, not run.
      expect(await runner.run('d-21', { n: 21 })).toBe(42);
      expect(events.filter((e) => e.kind === 'started')).toHaveLength(started);
      await runner.release('d-21');
      expect(await runner.run('d-21', { n: 21 })).toBe(42);
      expect(events.filter((e) => e.kind === 'started')).toHaveLength(started + 1);
      expect(events).toContainEqual({ kind: 'started', jobName: 'double', label: 'double {"n":21}' });
    } finally {
      await runner.close();
    }
  });

  it('fails an unknown job name and an UnrunnableJobError at once, without the retries the job allows; retries another error', async () => {
    const connection = redisConnection((redis as RedisServer).url);
    const queue = new Queue(NAME, { connection });
    try {
      const unknown = await queue.add('nobody-runs-this', {}, { attempts: 3 });
      const missing = await queue.add('missing', {}, { attempts: 3 });
      const retried = await queue.add('flaky', {}, { attempts: 3 });
      const settle = async (id: string) => {
        for (;;) {
          const state = await queue.getJobState(id);
          // Read once it is final: a job read before holds its fields as they were then.
          if (state === 'failed' || state === 'completed') return queue.getJob(id);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      const u = await settle(unknown.id as string);
      expect(u?.failedReason).toBe('this worker runs double and missing and flaky jobs, not nobody-runs-this');
      expect(u?.attemptsMade).toBe(1);
      const m = await settle(missing.id as string);
      expect(m?.failedReason).toBe('needs a package: npm install it');
      expect(m?.attemptsMade).toBe(1);
      expect(events).toContainEqual({ kind: 'failed', jobName: 'missing', label: `missing ${missing.id as string}`, error: 'needs a package: npm install it' });
      const r = await settle(retried.id as string);
      expect(r?.returnvalue).toBe('second');
      expect(r?.attemptsMade).toBe(2);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it('a job that failed on the worker rejects with the worker\'s reason', async () => {
    const runner = createQueueRunner<object, unknown>((redis as RedisServer).url, { name: NAME, jobName: 'missing', onLost: 'fail', resumeHint: 'again', pollMs: 100 });
    try {
      await expect(runner.run('m-1', {})).rejects.toThrow(new Error('needs a package: npm install it'));
    } finally {
      await runner.close();
    }
  });
});

describe('a Redis that cannot be reached', () => {
  it('fails the job by name within the connect timeout, saying where', { timeout: 30_000 }, async () => {
    const runner = createQueueRunner<object, unknown>('redis://127.0.0.1:1', { name: 'nowhere', jobName: 'x', onLost: 'fail', resumeHint: 'again' });
    try {
      const error = await runner.run('a', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueueError);
      expect((error as QueueError).failure).toBe('unreachable');
      expect((error as QueueError).code).toBe('PARL_ERR_QUEUE_UNREACHABLE');
      expect((error as QueueError).message).toBe('cannot reach Redis at redis://127.0.0.1:1 within 10 s');
    } finally {
      await runner.close();
    }
  });
});
