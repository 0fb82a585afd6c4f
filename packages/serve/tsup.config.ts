import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): src/index.ts as ESM and CommonJS, with types for both;
// and src/label-worker.ts, the module the labelling threads load (dist/label-worker.js).
export default defineConfig(parlTsupConfig({ entry: ['src/index.ts', 'src/label-worker.ts'] }));
