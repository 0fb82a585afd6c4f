import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): src/index.ts as ESM and CommonJS, with types for both.
export default defineConfig(parlTsupConfig());
