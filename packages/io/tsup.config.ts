import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): src/index.ts as ESM and CommonJS, with types for both;
// and src/label-worker.ts, the one module every labelling thread loads (dist/label-worker.js),
// whether `parl reward --threads N` or `parl serve` started it.
export default defineConfig(parlTsupConfig({ entry: ['src/index.ts', 'src/label-worker.ts'] }));
