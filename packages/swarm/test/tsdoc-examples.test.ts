/**
 * The `@example` blocks of @parl/swarm's doc comments run as written (test support's one suite,
 * `tsdoc-example-suite.ts`): each block in a fresh temporary folder, with the package's exports in
 * scope and its imports resolved from here.
 */
import { join } from 'node:path';
import { describeTsdocExamples } from '@parl/test-support/tsdoc-example-suite';
import * as exports from '../src/index.js';

describeTsdocExamples({
  packageName: '@parl/swarm',
  srcDir: join(import.meta.dirname, '..', 'src'),
  exports,
  load: (specifier) => import(specifier),
});
