import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts): src/index.ts as ESM and CommonJS, with types for both;
// src/label-worker.ts, the one module every labelling thread loads (dist/label-worker.js),
// whether `parl reward --threads N` or `parl serve` started it; and src/queue.ts,
// `@parl/io/queue`, the BullMQ job queue of `parl sweep --queue`, `parl swarm run --queue` and
// `parl worker`, an entry of its own so that the main entry never loads BullMQ.
export default defineConfig(parlTsupConfig({ entry: ['src/index.ts', 'src/label-worker.ts', 'src/queue.ts'] }));
