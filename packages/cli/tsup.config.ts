import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): the library, ESM and CommonJS. The `parl` bin is
// bin/parl.js, a committed file that runs dist/index.js's runCli: it exists before the first
// build, so installing the workspace links it without a warning.
export default defineConfig(parlTsupConfig());
