/**
 * The `@example` blocks of @parl/io's doc comments run as written (test support's one extractor
 * and runner, `tsdoc-examples.ts`): each block in a fresh temporary folder, with the package's
 * exports (and those of the example's own file) in scope and its imports resolved from here. The
 * job queue's examples run against a real redis-server on loopback (`REDIS_URL`, as they read it):
 * skipped with the reason when there is none, failed under `CI=true`.
 */
import { join } from 'node:path';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { runTsdocExample, tsdocExamples } from '@parl/test-support/tsdoc-examples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as self from '../src/index.js';

const SRC = join(import.meta.dirname, '..', 'src');
const examples = tsdocExamples(SRC);
const redisLookup = findRedisServer();
if (redisLookup.skipReason !== undefined) console.warn(`io's job queue examples skipped: ${redisLookup.skipReason}`);
let redis: RedisServer | undefined;
const savedUrl = process.env['REDIS_URL'];

beforeAll(async () => {
  if (redisLookup.path !== undefined) {
    redis = await startRedisServer(redisLookup.path);
    process.env['REDIS_URL'] = redis.url;
  }
});
afterAll(async () => {
  if (savedUrl === undefined) delete process.env['REDIS_URL'];
  else process.env['REDIS_URL'] = savedUrl;
  await redis?.close();
});

describe("@parl/io's TSDoc examples run as written", () => {
  it('finds the examples (a broken extractor must not pass by finding none)', () => {
    expect(examples.length).toBeGreaterThan(20);
  });

  it.for(examples.map((e) => [e.where, e] as const))('%s', { timeout: 30_000 }, async ([_where, example], { skip }) => {
    if (example.file.startsWith('queue/') && redisLookup.path === undefined) skip(redisLookup.skipReason);
    const failures = await runTsdocExample(example, {
      importModule: (specifier) => (specifier === '@parl/io' ? Promise.resolve(self) : specifier === '@parl/io/queue' ? import('../src/queue.js') : import(specifier)),
      globals: self,
      fileModule: (file) => import(join(SRC, file)) as Promise<Record<string, unknown>>,
    });
    expect(failures).toEqual([]);
  });
});
