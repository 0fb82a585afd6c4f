import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): src/index.ts as ESM and CommonJS, with types for both.
// src/names.ts is a second entry: `@parl/sim/names` gives the preset, policy and task-family names
// without loading the simulator (and TensorFlow.js), for the CLI's help.
// src/sweep-worker.ts is a third: `@parl/sim/sweep-worker`, the file a sweep's thread pool loads in each thread.
// src/runs.ts is a fifth: `@parl/sim/runs`, reading run folders without TensorFlow.js (parl report).
// src/options.ts: `@parl/sim/options`, the option tables of parl simulate and parl train (core and the names only).
// src/queue.ts is a fourth: `@parl/sim/queue`, the BullMQ runner and worker, so that the main entry never loads BullMQ.
// src/internal/bench.ts: dist/internal/bench.js, the internals the package's own bench/*.mjs read;
// not in package.json's exports, so nothing outside the package reaches it.
export default defineConfig(
  parlTsupConfig({ entry: ['src/index.ts', 'src/names.ts', 'src/sweep-worker.ts', 'src/queue.ts', 'src/runs.ts', 'src/options.ts', 'src/internal/bench.ts'] }),
);
