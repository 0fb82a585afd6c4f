/**
 * One vitest suite that runs every `@example` block of a package's doc comments (the extractor and
 * runner of `tsdoc-examples.ts`), so that each package's test says only what is its own: its name,
 * its sources, its exports, how its test resolves a module, and what else its examples assume is
 * at hand. Examples that need a Redis server get one (Debian's `redis-server`, started once on a
 * loopback port, its URL in scope as `redisUrl` and in `REDIS_URL`); without one they are skipped
 * with the reason (under `CI=true` the lookup fails instead).
 *
 * @module
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRedisServer, startRedisServer, type RedisServer } from './redis-server.js';
import { runTsdocExample, tsdocExamples, type TsdocExample } from './tsdoc-examples.js';

/** What a package's TSDoc example suite is made of. */
export interface TsdocExampleSuite {
  /** The package's name (`@parl/gpu`): an example's import of it gets `exports`. */
  readonly packageName: string;
  /** The package's sources folder. */
  readonly srcDir: string;
  /** The package's exports (its sources' index): in scope in every example by their names. */
  readonly exports: Readonly<Record<string, unknown>>;
  /**
   * `import()` called from the package's own test file, so that a module an example names resolves
   * from the package (its dependencies, not test support's); a subpath or an alias is mapped here.
   */
  readonly load: (specifier: string) => Promise<unknown>;
  /** Values in scope besides the exports, made for each example (`redisUrl` is the Redis server's, when started). */
  readonly globals?: (redisUrl: string | undefined) => Readonly<Record<string, unknown>>;
  /** The examples that need a Redis server. */
  readonly needsRedis?: (example: TsdocExample) => boolean;
  /** The fewest examples the package has (a broken extractor must not pass by finding none); 1 unless said. */
  readonly atLeast?: number;
  /** Milliseconds one example may take (some train a tiny run): 120,000 unless said. */
  readonly timeoutMs?: number;
}

/** The named exports of an example's own file (a default export has no name to be in scope by). */
async function namedExports(srcDir: string, file: string): Promise<Record<string, unknown>> {
  const { default: _default, ...named } = (await import(join(srcDir, file))) as Record<string, unknown>;
  return named;
}

/** Declare the suite: one test that the examples were found, then one test per example, named by `file.ts:line`. */
export function describeTsdocExamples(suite: TsdocExampleSuite): void {
  const examples = tsdocExamples(suite.srcDir);
  const needsRedis = suite.needsRedis ?? (() => false);
  const redisLookup = examples.some(needsRedis) ? findRedisServer() : undefined;
  const haveRedis = redisLookup !== undefined && redisLookup.skipReason === undefined;

  describe(`${suite.packageName}'s TSDoc examples run as written`, () => {
    let redis: RedisServer | undefined;
    const savedUrl = process.env['REDIS_URL'];
    beforeAll(async () => {
      if (!haveRedis || redisLookup?.path === undefined) return;
      redis = await startRedisServer(redisLookup.path);
      process.env['REDIS_URL'] = redis.url;
    });
    afterAll(async () => {
      if (savedUrl === undefined) delete process.env['REDIS_URL'];
      else process.env['REDIS_URL'] = savedUrl;
      await redis?.close();
    });

    it('finds the examples (a broken extractor must not pass by finding none)', () => {
      expect(examples.length).toBeGreaterThanOrEqual(suite.atLeast ?? 1);
    });

    it.for(examples.map((e) => [e.where, e] as const))('%s', { timeout: suite.timeoutMs ?? 120_000 }, async ([, example], { skip }) => {
      if (needsRedis(example) && !haveRedis) skip(`needs a Redis server: ${redisLookup?.skipReason ?? 'none found'}`);
      const failures = await runTsdocExample(example, {
        importModule: (specifier) => (specifier === suite.packageName ? Promise.resolve(suite.exports) : suite.load(specifier)),
        globals: { ...suite.exports, ...suite.globals?.(redis?.url) },
        fileModule: (file) => namedExports(suite.srcDir, file),
      });
      expect(failures).toEqual([]);
    });
  });
}
