import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): src/index.ts as ESM and CommonJS, with types for both;
// src/label-worker.ts, the module the labelling threads load (dist/label-worker.js); and
// src/options.ts, `@parl/serve/options`: the option table `parl --help` reads without loading Fastify.
export default defineConfig(parlTsupConfig({ entry: ['src/index.ts', 'src/label-worker.ts', 'src/options.ts'] }));
