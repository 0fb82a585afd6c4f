/**
 * The `@example` blocks of @parl/core's doc comments run as written (test support's one suite,
 * `tsdoc-example-suite.ts`): each block in a fresh temporary folder, with core's exports in scope;
 * `expr; // value` lines are checked (numbers to 1e-6 relative: float32 columns hold about seven
 * significant digits) and `// throws: …` lines must throw.
 */
import { join } from 'node:path';
import { describeTsdocExamples } from '@parl/test-support/tsdoc-example-suite';
import * as exports from '../src/index.js';

describeTsdocExamples({
  packageName: '@parl/core',
  srcDir: join(import.meta.dirname, '..', 'src'),
  exports,
  load: (specifier) => import(specifier),
  atLeast: 20,
});
