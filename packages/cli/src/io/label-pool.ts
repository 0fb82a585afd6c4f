/**
 * `--threads N` for `parl reward` / `parl critical-steps`: a piscina pool of N worker threads,
 * each labelling whole chunks of JSONL lines (see {@link labelChunk}) while the main thread only
 * reads, cuts and writes. Piscina, as for sweeps: maintained by Node.js contributors, it queues the
 * tasks, moves the chunk's bytes to the thread without a copy and tears the pool down cleanly.
 * Loaded only when `--threads` is above 1, so the one-thread start-up stays as it was.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { LabelChunkTask } from '../label-worker.js';
import type { ChunkLabeller } from './label-jsonl.js';
import type { LabelledChunk } from './label-chunk.js';
import type { LabelSpec } from './labellers.js';

/**
 * The worker's module: `label-worker.js` next to the built chunk that holds this code, or, when
 * this runs from the sources (the package's tests), the built one in `dist/`.
 */
export function labelWorkerFile(): string {
  for (const candidate of ['./label-worker.js', '../../dist/label-worker.js']) {
    const url = new URL(candidate, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url.href;
  }
  throw new Error('label-worker.js is missing next to the parl build (build @parl/cli)');
}

/** A worker thread's stack, in MiB: the main thread's JavaScript stack limit as seen from a thread. */
const THREAD_STACK_MB = (984 + 192) / 1024;

/**
 * Chunks out per thread: one being labelled, one waiting in the thread's own queue, so a thread
 * goes from one chunk to the next without waiting for the main thread to answer its result.
 */
const CHUNKS_PER_THREAD = 2;

/**
 * A {@link ChunkLabeller} over `threads` worker threads labelling with `spec`.
 *
 * @example
 * ```ts
 * const labeller = createLabelPool(2, { command: 'critical-steps', flags: {} });
 * ```
 */
export function createLabelPool(threads: number, spec: LabelSpec): ChunkLabeller {
  const pool = new Piscina<LabelChunkTask, LabelledChunk>({
    filename: labelWorkerFile(),
    minThreads: threads,
    maxThreads: threads,
    // Tasks are synchronous: the second one sent to a thread waits in its message queue.
    concurrentTasksPerWorker: CHUNKS_PER_THREAD,
    idleTimeout: 5_000,
    // V8's stack limit of the main thread (984 KiB) plus the 192 KiB Node keeps in reserve on a
    // thread: the threads then write (or call too deep) the same records as the main thread does.
    resourceLimits: { stackSizeMb: THREAD_STACK_MB },
  });
  return {
    inFlight: threads * CHUNKS_PER_THREAD,
    label: (job) => {
      const { buffer } = job.bytes;
      return pool.run({ ...job, spec }, { transferList: buffer instanceof ArrayBuffer ? [buffer] : [] });
    },
    close: () => pool.destroy(),
  };
}
