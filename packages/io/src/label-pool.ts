/**
 * The one worker pool of the labelling engine: piscina threads running `dist/label-worker.js`,
 * for `parl reward --threads N` / `parl critical-steps --threads N` (chunks of JSONL lines, see
 * {@link labelChunk}) and for `parl serve` (request bodies, see {@link labelRecordsBody}).
 * Piscina: maintained by Node.js contributors, it queues the tasks, moves byte arrays to and from
 * the threads without a copy and tears the pool down cleanly. Piscina is loaded only when a pool
 * is made, so a one-thread start-up (and `import '@parl/io'`) never loads it.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LabelledChunk } from './label-chunk.js';
import type { ChunkLabeller } from './internal/label-jsonl.js';
import type { CheckedBodyResult, LabelThreadTask, ModuleCallTask } from './label-worker.js';
import type { LabelBodyFailure, LabelBodyTask, LabelledBody } from './labelled-body.js';
import { BODY_SLICE_BYTES, BODY_WHOLE_BYTES, labelInSlices, type LabelledSlices } from './sliced-body.js';
import { labelSpecOf, type LabelSpec } from './labellers.js';

/**
 * The worker's module: `label-worker.js` next to the built chunk that holds this code, or, when
 * this runs from the sources (the package's tests), the built one in `dist/`.
 */
function labelWorkerFile(): string {
  for (const candidate of ['./label-worker.js', '../dist/label-worker.js']) {
    const url = new URL(candidate, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url.href;
  }
  throw new Error('label-worker.js is missing next to the @parl/io build (build @parl/io)');
}

/** A worker thread's stack, in MiB: the main thread's JavaScript stack limit as seen from a thread. */
const THREAD_STACK_MB = (984 + 192) / 1024;

/**
 * Chunks out per thread: one being labelled, one waiting in the thread's own queue, so a thread
 * goes from one chunk to the next without waiting for the main thread to answer its result.
 */
const CHUNKS_PER_THREAD = 2;

/** The young generation of a body-labelling thread, MiB: a few bodies of 16 MiB in flight die young. */
const BODY_THREAD_YOUNG_GENERATION_MB = 96;

/**
 * A {@link ChunkLabeller} over `threads` worker threads labelling with `spec` (its config is
 * resolved here, once: the threads receive it, never flags).
 *
 * @example
 * ```ts
 * const labeller = await createLabelPool(2, { command: 'critical-steps', config: {} });
 * ```
 */
export async function createLabelPool(threads: number, spec: LabelSpec): Promise<ChunkLabeller> {
  const sent = labelSpecOf(spec);
  const { Piscina } = await import('piscina');
  const pool = new Piscina<LabelThreadTask, LabelledChunk>({
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
      return pool.run({ kind: 'chunk', ...job, spec: sent }, { transferList: buffer instanceof ArrayBuffer ? [buffer] : [] });
    },
    close: () => pool.destroy(),
  };
}

/** Labels request bodies; {@link BodyLabeller.close} ends its threads. */
export interface BodyLabeller {
  /** Label one body (its bytes may be moved to a thread: do not use them afterwards). */
  label(task: LabelBodyTask): Promise<LabelledBody | LabelBodyFailure>;
  /**
   * Label one body slice by slice (see `labelInSlices`): its bytes count against the bounds
   * until its slices have been iterated (or the iteration left), not only while a thread works on it.
   */
  labelInSlices(task: LabelBodyTask): Promise<LabelledSlices | LabelBodyFailure>;
  /**
   * Run a caller's own work on the same threads (see {@link ModuleCall}), under the same bounds as
   * a body of `call.bytes` bytes: refused with {@link BodyQueueFullError} when a body would be.
   */
  call<T>(call: ModuleCall): Promise<T>;
  /** Bodies (and calls) waiting for a thread or being worked on now. */
  readonly pending: number;
  /** Their bytes. */
  readonly pendingBytes: number;
  /** Stop the threads (tasks in flight finish first). */
  close(): Promise<void>;
}

/** A caller's own work for the labelling threads: export `name` of `module`, called with `input` on a thread. */
export interface ModuleCall {
  /** A module URL; its export `name` takes `input` and returns `{ value, transfer? }`, `transfer` the array buffers to move back. */
  readonly module: string;
  /** The export to call. */
  readonly name: string;
  /** Its input (structured-cloned; the `transfer` buffers are moved, and unusable here afterwards). */
  readonly input: unknown;
  /** Array buffers inside `input` to move to the thread rather than copy. */
  readonly transfer?: readonly ArrayBuffer[];
  /** The bytes it holds, counted against {@link BodyLabellerOptions.maxQueuedBytes} while it waits or runs. */
  readonly bytes: number;
}

/** Options of {@link createBodyLabeller}. */
export interface BodyLabellerOptions {
  /** Worker threads (at least 1). */
  readonly threads: number;
  /** Bodies that may wait for a free thread; one more is refused with {@link BodyQueueFullError}. */
  readonly maxQueued: number;
  /**
   * Bytes of bodies waiting or being labelled at most (default: no bound besides `maxQueued`); a
   * body that would go over is refused with {@link BodyQueueFullError} (reason `bytes`), unless no
   * other body is in, so that one body up to the body limit is always labelled. A thread holds
   * about 8 to 14 times the body it labels besides it (docs/benchmarks.md), so the memory of the
   * pool is bounded by this plus the threads' share.
   */
  readonly maxQueuedBytes?: number;
  /** A module URL whose `bodyExtras` export ({@link BodyExtras}) runs on the threads after each body. */
  readonly extrasModule?: string;
  /**
   * Bytes of body per slice for {@link BodyLabeller.labelInSlices}, and the largest body it labels
   * in one go (default: slices of `BODY_SLICE_BYTES`, 256 KiB, for bodies over `BODY_WHOLE_BYTES`, 1 MiB).
   */
  readonly sliceBytes?: number;
}

/** A body refused because {@link BodyLabellerOptions.maxQueued} bodies or {@link BodyLabellerOptions.maxQueuedBytes} bytes are in already. */
export class BodyQueueFullError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_BODY_QUEUE_FULL'] as const;
  /** The stable code: `PARL_ERR_BODY_QUEUE_FULL` (match on this, never on the message). */
  readonly code = 'PARL_ERR_BODY_QUEUE_FULL';
  /** Which bound refused it. */
  readonly reason: 'bodies' | 'bytes';

  /**
   * @param reason - the bound that refused the body
   * @param limit - its value
   */
  constructor(reason: 'bodies' | 'bytes', limit: number) {
    super(reason === 'bodies' ? `${limit} bodies are waiting to be labelled already` : `the bodies waiting to be labelled would pass ${limit} bytes`);
    this.name = 'BodyQueueFullError';
    this.reason = reason;
  }
}

/** A body's bytes as a task can move them: its own array buffer (a view into a shared or pooled one is copied). */
function ownBytes(body: Uint8Array): Uint8Array {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) return body;
  return new Uint8Array(body);
}

/**
 * A {@link BodyLabeller} on worker threads: the same thread file as `createLabelPool`.
 * The body's reward config is made sendable here (see `sendableRewardConfig`).
 *
 * @example
 * ```ts
 * const labeller = await createBodyLabeller({ threads: 1, maxQueued: 8 });
 * const body = new TextEncoder().encode('[{"num_subagents": 4, "r_perf": 1}]');
 * const out = await labeller.label({ body, contentType: 'application/json', config: {} });
 * await labeller.close();
 * ```
 */
export async function createBodyLabeller(options: BodyLabellerOptions): Promise<BodyLabeller> {
  const { Piscina } = await import('piscina');
  // Bodies are admitted below (at most maxQueued waiting besides one a thread): the pool's own
  // queue only ever holds admitted work and the slices of admitted bodies, so it never refuses.
  const pool = new Piscina<LabelThreadTask, unknown>({
    filename: labelWorkerFile(),
    minThreads: options.threads,
    maxThreads: options.threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    resourceLimits: { maxYoungGenerationSizeMb: BODY_THREAD_YOUNG_GENERATION_MB },
  });
  let pending = 0;
  let pendingBytes = 0;
  const maxBytes = options.maxQueuedBytes ?? Number.POSITIVE_INFINITY;
  const maxIn = options.maxQueued + options.threads;
  const extras = options.extrasModule === undefined ? {} : { extrasModule: options.extrasModule };
  /** Admit a body of `size` bytes within the bounds; the function returned lets it go (once). */
  function admit(size: number): () => void {
    if (pending >= maxIn) throw new BodyQueueFullError('bodies', options.maxQueued);
    if (pending > 0 && pendingBytes + size > maxBytes) throw new BodyQueueFullError('bytes', maxBytes);
    pending++;
    pendingBytes += size;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      pending--;
      pendingBytes -= size;
    };
  }
  /** Run `task` on a thread as a body of `size` bytes, within the bounds. */
  async function bounded<T>(size: number, task: LabelThreadTask, transferList: ArrayBuffer[]): Promise<T> {
    const release = admit(size);
    try {
      return (await pool.run(task, { transferList })) as T;
    } finally {
      release();
    }
  }
  const sendable = (task: LabelBodyTask): LabelBodyTask => ({
    body: ownBytes(task.body),
    contentType: task.contentType,
    config: labelSpecOf({ command: 'reward', config: task.config }).config,
    ...(task.withoutExtraBytes === true ? { withoutExtraBytes: true } : {}),
  });
  return {
    get pending() {
      return pending;
    },
    get pendingBytes() {
      return pendingBytes;
    },
    label: (task) => {
      const run = { kind: 'body' as const, ...sendable(task), ...extras };
      return bounded<LabelledBody | LabelBodyFailure>(task.body.byteLength, run, [run.body.buffer as ArrayBuffer]);
    },
    labelInSlices: async (task) => {
      const release = admit(task.body.byteLength);
      const sent = sendable(task);
      return labelInSlices(
        sent,
        {
          whole: async (t) => {
            const body = ownBytes(t.body);
            return (await pool.run({ kind: 'body', ...t, body, ...extras }, { transferList: [body.buffer as ArrayBuffer] })) as LabelledBody | LabelBodyFailure;
          },
          check: async (t, sliceBytes) => {
            const body = ownBytes(t.body);
            return (await pool.run({ kind: 'check', ...t, body, sliceBytes }, { transferList: [body.buffer as ArrayBuffer] })) as CheckedBodyResult;
          },
          slice: async (t) => (await pool.run({ kind: 'slice', ...t, ...extras }, { transferList: [t.body.buffer as ArrayBuffer] })) as LabelledBody,
        },
        options.sliceBytes ?? BODY_SLICE_BYTES,
        release,
        options.sliceBytes ?? BODY_WHOLE_BYTES,
      );
    },
    call: <T>(call: ModuleCall) => {
      const task: ModuleCallTask = { kind: 'call', module: call.module, name: call.name, input: call.input };
      return bounded<T>(call.bytes, task, [...(call.transfer ?? [])]);
    },
    close: () => pool.close(),
  };
}
