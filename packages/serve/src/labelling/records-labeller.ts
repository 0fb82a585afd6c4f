/**
 * Where `/v1/rewards` bodies are labelled: on worker threads (a piscina pool), so that the event
 * loop only receives, logs and answers; or, with no threads, on the event loop itself.
 *
 * Labelling on threads takes the parsing, labelling and serialising of every record — and the
 * garbage they make — off the event loop. The threads get a young generation large enough that
 * a body's short-lived objects die there instead of being copied by the scavenger; on the event
 * loop, under sustained load, that copying had been the server's largest single cost.
 *
 * Piscina (as `parl reward --threads` and `parl sweep` use): maintained by Node.js contributors,
 * it queues tasks, moves byte arrays between threads without a copy and tears the pool down.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { httpError } from '../http-error.js';
import { labelRecordsBody, type LabelBodyFailure, type LabelBodyTask, type LabelledBody } from './labelled-body.js';

/** Labels bodies; {@link RecordsLabeller.close} ends its threads. */
export interface RecordsLabeller {
  /** Label one body (its bytes may be moved to a thread: do not use them afterwards). */
  label(task: LabelBodyTask): Promise<LabelledBody | LabelBodyFailure>;
  /** Threads labelling (0: the event loop labels). */
  readonly threads: number;
  /** Stop the threads (tasks in flight finish first). */
  close(): Promise<void>;
}

/** The young generation of a labelling thread, MiB: a few bodies of 16 MiB (the default body limit) in flight die young. */
const THREAD_YOUNG_GENERATION_MB = 96;

/**
 * The worker's module: `label-worker.js` next to the built module holding this code, or, when this
 * runs from the sources (the package's tests), the built one in `dist/`.
 */
function labelWorkerFile(): string {
  for (const candidate of ['./label-worker.js', '../../dist/label-worker.js']) {
    const url = new URL(candidate, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url.href;
  }
  throw new Error('label-worker.js is missing next to the @parl/serve build (build @parl/serve)');
}

/** A body's bytes as a task can move them: its own array buffer (a view into a shared or pooled one is copied). */
function ownBytes(body: Uint8Array): Uint8Array {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) return body;
  return new Uint8Array(body);
}

/**
 * A labeller on `threads` worker threads, or on the event loop when `threads` is 0. With threads,
 * at most `maxQueued` bodies wait for a free thread; a body beyond that is refused with a `503`
 * (load shedding: the server stays responsive and its memory bounded, and the client retries).
 *
 * @example
 * ```ts
 * const labeller = await createRecordsLabeller(1);
 * const out = await labeller.label({ body, contentType: 'application/json', query: {} });
 * await labeller.close();
 * ```
 */
export async function createRecordsLabeller(threads: number, maxQueued: number): Promise<RecordsLabeller> {
  if (threads === 0) {
    return { threads, label: (task) => Promise.resolve(labelRecordsBody(task)), close: () => Promise.resolve() };
  }
  const { Piscina } = await import('piscina');
  const pool = new Piscina<LabelBodyTask, LabelledBody | LabelBodyFailure>({
    filename: labelWorkerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
    maxQueue: maxQueued,
  });
  return {
    threads,
    label: (task) => {
      const body = ownBytes(task.body);
      return pool.run({ ...task, body }, { transferList: [body.buffer as ArrayBuffer] }).catch((err: unknown) => {
        if (err instanceof Error && err.message === 'Task queue is at limit') {
          throw httpError(503, `busy: ${maxQueued} bodies are waiting to be labelled already (maxQueuedBodies); retry shortly`);
        }
        throw err;
      });
    },
    close: () => pool.close(),
  };
}
