/**
 * Where `/v1/rewards` bodies are labelled: by `@parl/io`'s labelling engine, on its worker
 * threads (so that the event loop only receives, logs and answers), or, with no threads, on the
 * event loop itself. The dashboard points and log lines are made on the same thread
 * (`body-extras.ts`). The same threads run the server's other large work (`thread-tasks.ts`:
 * large `/get_reward` bodies and OTLP requests, large traces), under the same bounds.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  BodyQueueFullError,
  createBodyLabeller,
  labelRecordsBody,
  labelRecordsBodyInSlices,
  type LabelBodyFailure,
  type LabelBodyTask,
  type LabelledBody,
  type LabelledSlices,
  type ModuleCall,
} from '@parl/io';
import { httpError } from '../http-error.js';
import { bodyExtras } from './body-extras.js';

/** Labels bodies; {@link RecordsLabeller.close} ends its threads. */
export interface RecordsLabeller {
  /** Label one body (its bytes may be moved to a thread: do not use them afterwards). */
  label(task: LabelBodyTask): Promise<LabelledBody | LabelBodyFailure>;
  /**
   * Label one body slice by slice (`@parl/io`'s `labelInSlices`): a body over 1 MiB is checked
   * whole first, then labelled a slice at a time as the caller iterates, so that its whole answer
   * is never held. Under the same bounds as {@link RecordsLabeller.label}, held until the slices
   * are iterated.
   */
  labelInSlices(task: LabelBodyTask): Promise<LabelledSlices | LabelBodyFailure>;
  /**
   * Run an export of `dist/thread-tasks.js` on the threads for a request, under the bounds of the
   * bodies: refused, as a body would be, with a `503` counted in `onShed`. Undefined with no threads.
   */
  readonly call: (<T>(name: string, input: unknown, transfer: ArrayBuffer[], bytes: number) => Promise<T>) | undefined;
  /**
   * The same for work of the server's own (mapping a finished trace): rejects with
   * `BodyQueueFullError` (from `@parl/io`) when the threads' queue is full, for the caller to wait.
   */
  readonly callInBackground: (<T>(name: string, input: unknown, transfer: ArrayBuffer[], bytes: number) => Promise<T>) | undefined;
  /** Threads labelling (0: the event loop labels). */
  readonly threads: number;
  /** Stop the threads (tasks in flight finish first). */
  close(): Promise<void>;
}

/**
 * A module the threads load (`body-extras.js`, `thread-tasks.js`): next to the built module holding
 * this code, or, when this runs from the sources (the package's tests), the built one in `dist/`.
 */
function threadModuleFile(name: string): string {
  for (const candidate of [`./${name}`, `../../dist/${name}`]) {
    const url = new URL(candidate, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url.href;
  }
  throw new Error(`${name} is missing next to the @parl/serve build (build @parl/serve)`);
}

/**
 * A labeller on `threads` worker threads, or on the event loop when `threads` is 0. With threads,
 * at most `maxQueued` bodies of `maxQueuedBytes` bytes in all wait for or are on a thread; a body
 * beyond either is refused with a `503` and reported to `onShed` (load shedding: the server stays
 * responsive and its memory bounded, and the client retries).
 *
 * @example
 * ```ts
 * const labeller = await createRecordsLabeller(1, 8);
 * const body = new TextEncoder().encode('[{"r_perf": 1}]');
 * const out = await labeller.label({ body, contentType: 'application/json', config: {} });
 * await labeller.close();
 * ```
 */
export async function createRecordsLabeller(
  threads: number,
  maxQueued: number,
  maxQueuedBytes = Number.POSITIVE_INFINITY,
  onShed: (reason: 'bodies' | 'bytes') => void = () => undefined,
): Promise<RecordsLabeller> {
  if (threads === 0) {
    return {
      threads,
      label: (task) => Promise.resolve(labelRecordsBody(task, bodyExtras)),
      labelInSlices: (task) => labelRecordsBodyInSlices(task, bodyExtras),
      call: undefined,
      callInBackground: undefined,
      close: () => Promise.resolve(),
    };
  }
  const pool = await createBodyLabeller({ threads, maxQueued, maxQueuedBytes, extrasModule: threadModuleFile('body-extras.js') });
  const tasksModule = threadModuleFile('thread-tasks.js');
  const callInBackground = <T>(name: string, input: unknown, transfer: ArrayBuffer[], bytes: number): Promise<T> => {
    const call: ModuleCall = { module: tasksModule, name, input, transfer, bytes };
    return pool.call<T>(call);
  };
  /** A full queue said as a request's `503`, counted. */
  const shed = (err: unknown): never => {
    if (err instanceof BodyQueueFullError) {
      onShed(err.reason);
      const bound = err.reason === 'bodies' ? `${maxQueued} bodies are waiting to be labelled already (maxQueuedBodies)` : `the bodies waiting to be labelled would pass ${maxQueuedBytes} bytes (maxQueuedBodyBytes)`;
      throw httpError(503, `busy: ${bound}; retry shortly`);
    }
    throw err;
  };
  return {
    threads,
    call: <T>(name: string, input: unknown, transfer: ArrayBuffer[], bytes: number): Promise<T> => callInBackground<T>(name, input, transfer, bytes).catch(shed),
    callInBackground,
    label: (task) => pool.label(task).catch(shed),
    labelInSlices: (task) => pool.labelInSlices(task).catch(shed),
    close: () => pool.close(),
  };
}
