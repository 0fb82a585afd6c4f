/**
 * The `@example` blocks of @parl/sim's doc comments run as written (test support's one extractor
 * and runner, `tsdoc-examples.ts`): each block in a fresh temporary folder, with the package's
 * exports in scope and its imports (`@parl/sim` and its subpaths) resolved to its sources. The
 * examples train tiny runs and sweeps of their own; those of the job queue get `redisUrl`, a real
 * Redis (`redis-server` from Debian) started by this test on a loopback port.
 */
import { join } from 'node:path';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { runTsdocExample, tsdocExamples, type TsdocExample } from '@parl/test-support/tsdoc-examples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as self from '../src/index.js';

const SRC = join(import.meta.dirname, '..', 'src');
const examples = tsdocExamples(SRC);

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
if (!HAVE_REDIS) console.warn(`the job queue's examples are skipped: ${redisLookup.skipReason}`);
const needsRedis = (code: string): boolean => code.includes('redisUrl');

/** `@parl/sim` → the sources' index; `@parl/sim/<entry>` → `src/<entry>.ts`; anything else as it resolves here. */
function importModule(specifier: string): Promise<unknown> {
  if (specifier === '@parl/sim') return Promise.resolve(self);
  const entry = /^@parl\/sim\/([\w-]+)$/.exec(specifier)?.[1];
  return entry === undefined ? import(specifier) : import(join(SRC, `${entry}.ts`));
}

/** The named exports of an example's own file (a default export has no name to be in scope by). */
async function fileExports(file: string): Promise<Record<string, unknown>> {
  const { default: _default, ...named } = (await import(join(SRC, file))) as Record<string, unknown>;
  return named;
}

describe("@parl/sim's TSDoc examples run as written", () => {
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    if (HAVE_REDIS && examples.some((e) => needsRedis(e.code))) redis = await startRedisServer(redisLookup.path as string);
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('finds the examples (a broken extractor must not pass by finding none)', () => {
    expect(examples.length).toBeGreaterThan(0);
  });

  const run = async (example: TsdocExample): Promise<void> => {
    const failures = await runTsdocExample(example, {
      importModule,
      globals: { ...self, redisUrl: redis?.url },
      fileModule: fileExports,
    });
    expect(failures).toEqual([]);
  };
  it.each(examples.filter((e) => !needsRedis(e.code)).map((e) => [e.where, e] as const))('%s', (_where, example) => run(example), 120_000);
  it.skipIf(!HAVE_REDIS).each(examples.filter((e) => needsRedis(e.code)).map((e) => [e.where, e] as const))('%s (Redis)', (_where, example) => run(example), 120_000);
});
