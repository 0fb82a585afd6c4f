/**
 * The `@example` blocks of @parl/sim's doc comments run as written (test support's one suite,
 * `tsdoc-example-suite.ts`): each block in a fresh temporary folder, with the package's exports in
 * scope and its imports (`@parl/sim` and its subpaths) resolved to its sources. The examples train
 * tiny runs and sweeps of their own; those of the job queue get `redisUrl`, a real Redis (Debian's
 * `redis-server`) the suite starts on a loopback port.
 */
import { join } from 'node:path';
import { describeTsdocExamples } from '@parl/test-support/tsdoc-example-suite';
import * as exports from '../src/index.js';

const SRC = join(import.meta.dirname, '..', 'src');

describeTsdocExamples({
  packageName: '@parl/sim',
  srcDir: SRC,
  exports,
  // `@parl/sim/<entry>` → `src/<entry>.ts`; anything else as it resolves here.
  load: (specifier) => {
    const entry = /^@parl\/sim\/([\w-]+)$/.exec(specifier)?.[1];
    return entry === undefined ? import(specifier) : import(join(SRC, `${entry}.ts`));
  },
  globals: (redisUrl) => ({ redisUrl }),
  needsRedis: (example) => example.code.includes('redisUrl'),
});
