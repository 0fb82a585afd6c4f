import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): src/index.ts as ESM and CommonJS, with types for both.
// src/options.ts is a second entry: `@parl/traces/options`, the option tables of parl trace (core
// only), so that the CLI builds the command's flags and help without loading the trace readers.
export default defineConfig(parlTsupConfig({ entry: ['src/index.ts', 'src/options.ts'] }));
