/**
 * Backend selection: the first of tfjs-node-gpu → tfjs-node → wasm → cpu that loads here, with
 * `PARL_BACKEND` to force one and a record of why the others were skipped.
 *
 * The optional peers `@tensorflow/tfjs-node-gpu` and `@tensorflow/tfjs-node` are loaded with a
 * dynamic `import()` of a computed specifier, so bundling and type-checking work when they are
 * absent. The wasm binaries are located in the installed `@tensorflow/tfjs-backend-wasm` package.
 *
 * @module
 */
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs-core';
// The cpu backend is always registered, so the kernels run (on cpu) even before initBackend().
import '@tensorflow/tfjs-backend-cpu';
import { ParlInputError } from '@parl/core';
import { registerParlGradients } from './gradients.js';

/**
 * A backend @parl/gpu can run on:
 * - `tensorflow-gpu`: `@tensorflow/tfjs-node-gpu` (libtensorflow with CUDA 11.2 / cuDNN 8.1);
 * - `tensorflow`: `@tensorflow/tfjs-node` (libtensorflow on the CPU);
 * - `wasm`: `@tensorflow/tfjs-backend-wasm` (XNNPACK, SIMD where Node has it);
 * - `cpu`: `@tensorflow/tfjs-backend-cpu` (plain JavaScript, always available).
 */
export type BackendName = 'tensorflow-gpu' | 'tensorflow' | 'wasm' | 'cpu';

/** Every backend name, in the default order of preference. */
export const BACKEND_NAMES: readonly BackendName[] = ['tensorflow-gpu', 'tensorflow', 'wasm', 'cpu'];

/** The default order {@link initBackend} tries: tfjs-node-gpu → tfjs-node → wasm → cpu. */
export const DEFAULT_BACKEND_ORDER: readonly BackendName[] = BACKEND_NAMES;

/** The environment variable that forces a backend, e.g. `PARL_BACKEND=wasm`. */
export const BACKEND_ENV_VAR = 'PARL_BACKEND';

/** Options of {@link initBackend}. */
export interface InitBackendOptions {
  /** The backends to try, first to last (default {@link DEFAULT_BACKEND_ORDER}). */
  readonly order?: readonly BackendName[];
  /**
   * Use this backend or fail. Takes precedence over `PARL_BACKEND`, which takes precedence over
   * `order`.
   */
  readonly force?: BackendName;
}

/** A backend that was not chosen, and why. */
export interface SkippedBackend {
  /** The backend. */
  readonly backend: BackendName;
  /** Why it was skipped, e.g. the error its package raised when loaded. */
  readonly reason: string;
}

/** What {@link initBackend} chose. */
export interface BackendSelection {
  /** The active backend. */
  readonly backend: BackendName;
  /** The name tfjs-core knows it by (`tensorflow`, `wasm`, `cpu`), as `tf.getBackend()` reports. */
  readonly tfjsBackend: string;
  /** The backends tried before it or left out, each with its reason. */
  readonly skipped: readonly SkippedBackend[];
}

/** The tfjs-core name under which each backend registers. */
const TFJS_NAME: Record<BackendName, string> = {
  'tensorflow-gpu': 'tensorflow',
  tensorflow: 'tensorflow',
  wasm: 'wasm',
  cpu: 'cpu',
};

/** The npm package that provides each backend. */
export const BACKEND_PACKAGES: Readonly<Record<BackendName, string>> = {
  'tensorflow-gpu': '@tensorflow/tfjs-node-gpu',
  tensorflow: '@tensorflow/tfjs-node',
  wasm: '@tensorflow/tfjs-backend-wasm',
  cpu: '@tensorflow/tfjs-backend-cpu',
};

/** Which of the two tfjs-node packages registered the `tensorflow` backend in this process. */
let tensorflowOwner: 'tensorflow-gpu' | 'tensorflow' | undefined;
/** Loads already done (or failed), so that a second initBackend() never loads a package twice. */
const loads = new Map<BackendName, Promise<void>>();
/** initBackend() calls run one after another. */
let queue: Promise<unknown> = Promise.resolve();
let active: BackendName | undefined;

/** The message of any thrown value, on one line. */
function reasonOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return line.trim();
}

/** A dynamic import that neither bundlers nor tsc try to resolve. */
async function importOptional(specifier: string): Promise<unknown> {
  return import(/* @vite-ignore */ specifier);
}

async function loadTensorflow(name: 'tensorflow-gpu' | 'tensorflow'): Promise<void> {
  if (tensorflowOwner !== undefined && tensorflowOwner !== name) {
    throw new Error(`${BACKEND_PACKAGES[tensorflowOwner]} already provides the "tensorflow" backend in this process`);
  }
  await importOptional(BACKEND_PACKAGES[name]);
  if (tf.findBackendFactory('tensorflow') === null) {
    throw new Error(`${BACKEND_PACKAGES[name]} loaded but registered no "tensorflow" backend with @tensorflow/tfjs-core`);
  }
  tensorflowOwner = name;
}

async function loadWasm(): Promise<void> {
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  // Emscripten reads the .wasm files with fs in Node: give it the folder of the installed package.
  const require = createRequire(import.meta.url);
  const file = require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm');
  wasm.setWasmPaths(file.slice(0, file.length - 'tfjs-backend-wasm.wasm'.length));
}

async function loadCpu(): Promise<void> {
  await import('@tensorflow/tfjs-backend-cpu');
}

function load(name: BackendName): Promise<void> {
  let pending = loads.get(name);
  if (pending === undefined) {
    pending =
      name === 'wasm' ? loadWasm() : name === 'cpu' ? loadCpu() : loadTensorflow(name);
    loads.set(name, pending);
  }
  return pending;
}

/** Load and activate one backend; the reason it cannot be used, or undefined on success. */
async function tryBackend(name: BackendName): Promise<string | undefined> {
  try {
    await load(name);
  } catch (err) {
    return `${BACKEND_PACKAGES[name]} could not be loaded: ${reasonOf(err)}`;
  }
  if (name.startsWith('tensorflow') && tensorflowOwner !== name) {
    return `${BACKEND_PACKAGES[tensorflowOwner ?? 'tensorflow']} already provides the "tensorflow" backend in this process`;
  }
  try {
    const ok = await tf.setBackend(TFJS_NAME[name]);
    if (!ok) return `${BACKEND_PACKAGES[name]} loaded but its backend failed to initialise`;
    await tf.ready();
  } catch (err) {
    return `${BACKEND_PACKAGES[name]} failed to initialise: ${reasonOf(err)}`;
  }
  return undefined;
}

function requireBackendName(value: unknown, field: string): BackendName {
  if (typeof value !== 'string' || !(BACKEND_NAMES as readonly string[]).includes(value)) {
    throw new ParlInputError(field, value, `one of ${BACKEND_NAMES.map((n) => `"${n}"`).join(', ')}`);
  }
  return value as BackendName;
}

async function select(options: InitBackendOptions): Promise<BackendSelection> {
  const envValue = process.env[BACKEND_ENV_VAR];
  let forced: { name: BackendName; field: string } | undefined;
  if (options.force !== undefined) {
    forced = { name: requireBackendName(options.force, 'force'), field: 'force' };
  } else if (envValue !== undefined && envValue.trim() !== '') {
    forced = { name: requireBackendName(envValue.trim(), BACKEND_ENV_VAR), field: BACKEND_ENV_VAR };
  }

  if (forced !== undefined) {
    const reason = await tryBackend(forced.name);
    if (reason !== undefined) {
      throw new ParlInputError(
        forced.field,
        forced.name,
        `a backend that runs here (${reason}); valid names are ${BACKEND_NAMES.map((n) => `"${n}"`).join(', ')}`,
      );
    }
    active = forced.name;
    const why = `not tried: ${forced.field} = "${forced.name}" forces that backend`;
    return {
      backend: forced.name,
      tfjsBackend: tf.getBackend(),
      skipped: BACKEND_NAMES.filter((n) => n !== forced.name).map((backend) => ({ backend, reason: why })),
    };
  }

  const order = options.order ?? DEFAULT_BACKEND_ORDER;
  if (!Array.isArray(order) || order.length === 0) {
    throw new ParlInputError('order', order, `a non-empty array of backend names (${BACKEND_NAMES.join(', ')})`);
  }
  order.forEach((name, i) => requireBackendName(name, `order[${i}]`));
  const skipped: SkippedBackend[] = [];
  for (const name of order) {
    const reason = await tryBackend(name);
    if (reason === undefined) {
      active = name;
      for (const rest of BACKEND_NAMES) {
        if (!order.includes(rest)) skipped.push({ backend: rest, reason: 'not in the order given' });
      }
      return { backend: name, tfjsBackend: tf.getBackend(), skipped };
    }
    skipped.push({ backend: name, reason });
  }
  throw new ParlInputError(
    'order',
    order,
    `a list holding a backend that runs here; ${skipped.map((s) => `${s.backend}: ${s.reason}`).join('; ')}`,
  );
}

/**
 * Pick and activate the backend the kernels run on: the first of `order` (default
 * tfjs-node-gpu → tfjs-node → wasm → cpu) that loads and initialises here. `PARL_BACKEND` (or
 * `options.force`) forces one backend and fails when it cannot run.
 *
 * Safe to call more than once and concurrently: calls run one after another, each package is
 * loaded at most once, and switching back to a backend already initialised is cheap.
 *
 * @returns the active backend, its tfjs-core name and why the other backends were skipped
 * @throws `ParlInputError` (`@parl/core`) naming `PARL_BACKEND` (or `force`, `order[i]`), the value and
 *   the valid names when the name is unknown, or the reason when the forced backend cannot run
 *
 * @example
 * ```ts
 * const { backend, skipped } = await initBackend();
 * console.log(backend); // 'wasm' where tfjs-node is not installed
 * for (const s of skipped) console.log(`${s.backend}: ${s.reason}`);
 * await initBackend({ force: 'cpu' }); // switch to the cpu backend
 * ```
 */
export function initBackend(options: InitBackendOptions = {}): Promise<BackendSelection> {
  registerParlGradients();
  const run = queue.then(() => select(options));
  queue = run.catch(() => undefined);
  return run;
}

/**
 * The backend chosen by the last successful {@link initBackend}, or undefined before one.
 * (Before any call the kernels run on tfjs-core's default, `cpu` unless another package
 * registered a backend with a higher priority.)
 */
export function activeBackend(): BackendName | undefined {
  return active;
}

/**
 * The `@tensorflow/tfjs-core` namespace the kernels use. Dependents that build their own
 * tensors must use this instance (or the same installed tfjs-core 4.22.0).
 *
 * @example
 * ```ts
 * import { tf } from '@parl/gpu';
 * const x = tf.tensor1d([1, 2, 3]);
 * ```
 */
export { tf };
