/**
 * The `@example` blocks of @parl/cli's doc comments run as written (test support's one suite,
 * `tsdoc-example-suite.ts`): each block in a fresh temporary folder, with the package's exports in
 * scope, an `io` whose stdin is empty and whose stdout and stderr drop what they are given (the
 * examples check what commands return and write to files), and for the worker's example
 * `redisUrl`, a real Redis (Debian's `redis-server`) the suite starts on a loopback port.
 */
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { describeTsdocExamples } from '@parl/test-support/tsdoc-example-suite';
import * as exports from '../src/index.js';
import type { CliIo } from '../src/terminal/cli-io.js';

function memoryIo(): CliIo {
  const sink = (): Writable => new Writable({ write: (_chunk, _encoding, done) => done() });
  return { stdin: Readable.from([]), stdout: sink(), stderr: sink(), stderrIsTTY: false };
}

describeTsdocExamples({
  packageName: '@parl/cli',
  srcDir: join(import.meta.dirname, '..', 'src'),
  exports,
  load: (specifier) => import(specifier),
  globals: (redisUrl) => ({ io: memoryIo(), redisUrl }),
  needsRedis: (example) => example.code.includes('redisUrl'),
});
