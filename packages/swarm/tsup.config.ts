import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): src/index.ts as ESM and CommonJS, with types for both.
// src/options.ts is a second entry: `@parl/swarm/options` gives the option tables of
// `parl swarm run` / `parl swarm eval` without loading the AI SDK, for the CLI's help.
export default defineConfig(parlTsupConfig({ entry: ['src/index.ts', 'src/options.ts'] }));
