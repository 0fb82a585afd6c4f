/**
 * The `@example` blocks of @parl/cli's doc comments run as written (test support's one extractor
 * and runner, `tsdoc-examples.ts`): each block in a fresh temporary folder, with the package's
 * exports in scope and its imports resolved from here (`@parl/cli` to its sources). The examples
 * simulate, train and sweep tiny runs of their own. In scope besides: `io`, the command's streams
 * (the bin passes `processIo()`; here stdin is empty and stdout and stderr go nowhere), and
 * for the worker's example `redisUrl`, a real Redis (`redis-server` from Debian) that this test
 * starts on a loopback port.
 */
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { runTsdocExample, tsdocExamples, type TsdocExample } from '@parl/test-support/tsdoc-examples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as self from '../src/index.js';
import type { CliIo } from '../src/terminal/cli-io.js';

const SRC = join(import.meta.dirname, '..', 'src');
const examples = tsdocExamples(SRC);

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
if (!HAVE_REDIS) console.warn(`the worker's example is skipped: ${redisLookup.skipReason}`);
const needsRedis = (code: string): boolean => code.includes('redisUrl');

/** `@parl/cli` → the sources' index; anything else as it resolves here. */
function importModule(specifier: string): Promise<unknown> {
  return specifier === '@parl/cli' ? Promise.resolve(self) : import(specifier);
}

/** The named exports of an example's own file (a default export has no name to be in scope by). */
async function fileExports(file: string): Promise<Record<string, unknown>> {
  const { default: _default, ...named } = (await import(join(SRC, file))) as Record<string, unknown>;
  return named;
}

/** An empty stdin, and a stdout and stderr that drop what they are given (the examples check what commands return and write to files). */
function memoryIo(): CliIo {
  const sink = (): Writable => new Writable({ write: (_chunk, _encoding, done) => done() });
  return { stdin: Readable.from([]), stdout: sink(), stderr: sink(), stderrIsTTY: false };
}

describe("@parl/cli's TSDoc examples run as written", () => {
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
      globals: { ...self, io: memoryIo(), redisUrl: redis?.url },
      fileModule: fileExports,
    });
    expect(failures).toEqual([]);
  };
  it.each(examples.filter((e) => !needsRedis(e.code)).map((e) => [e.where, e] as const))('%s', (_where, example) => run(example), 120_000);
  it.skipIf(!HAVE_REDIS).each(examples.filter((e) => needsRedis(e.code)).map((e) => [e.where, e] as const))('%s (Redis)', (_where, example) => run(example), 120_000);
});
