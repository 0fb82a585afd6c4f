/**
 * The `@example` blocks of @parl/io's doc comments run as written (test support's one suite,
 * `tsdoc-example-suite.ts`): each block in a fresh temporary folder, with the package's exports in
 * scope and `@parl/io` and `@parl/io/queue` resolved to its sources. The job queue's examples read
 * `REDIS_URL`: a real Redis (Debian's `redis-server`) the suite starts on a loopback port.
 */
import { join } from 'node:path';
import { describeTsdocExamples } from '@parl/test-support/tsdoc-example-suite';
import * as exports from '../src/index.js';

describeTsdocExamples({
  packageName: '@parl/io',
  srcDir: join(import.meta.dirname, '..', 'src'),
  exports,
  load: (specifier) => (specifier === '@parl/io/queue' ? import('../src/queue.js') : import(specifier)),
  needsRedis: (example) => example.file.startsWith('queue/'),
  atLeast: 20,
});
