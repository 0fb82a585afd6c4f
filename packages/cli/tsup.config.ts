import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): the library, ESM and CommonJS. The `parl` bin is
// bin/parl.js, a committed file that runs dist/index.js's runCli: it exists before the first
// build, so installing the workspace links it without a warning.
// src/run-cli.ts is a second entry, the one bin/parl.js loads: it reaches each command's module only
// when that command runs (ESM chunks), so `parl reward` never loads the simulator. The labelling
// threads of `--threads N` load @parl/io's dist/label-worker.js.
export default defineConfig(parlTsupConfig({ entry: ['src/index.ts', 'src/run-cli.ts'] }));
