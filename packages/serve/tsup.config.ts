import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): src/index.ts as ESM and CommonJS, with types for both;
// src/labelling/body-extras.ts (dist/body-extras.js), the module @parl/io's labelling threads load
// to make the dashboard points and log lines of a /v1/rewards body; src/threads/thread-tasks.ts
// (dist/thread-tasks.js), the rest of the work those threads do for the server (large traces);
// and src/options.ts
// (`@parl/serve/options`): the option table `parl --help` reads without loading Fastify.
export default defineConfig(
  parlTsupConfig({ entry: { index: 'src/index.ts', 'body-extras': 'src/labelling/body-extras.ts', 'thread-tasks': 'src/threads/thread-tasks.ts', options: 'src/options.ts' } }),
);
