/**
 * The WebAssembly side of the batch kernels: feature detection, the compiled kernels module
 * (kernels.wat, embedded as base64 in kernels-wasm.ts, so nothing is read from disk or the
 * network) and arenas, each an instance of the module with a memory of its own.
 *
 * An arena's memory holds a kernel's inputs and outputs. Arrays handed to callers (from
 * `allocateRewardBatchOutput`, `allocateCriticalStepsBatchInput`) live in an arena that never
 * grows, so their views are never detached; the kernels run on them where they are. Other
 * arrays are copied into one shared scratch arena, which grows as needed.
 *
 * @module
 */
import { KERNELS_WASM_BASE64 } from './kernels-wasm.js';

/** The part of a WebAssembly.Memory the kernels use. */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The part of the WebAssembly namespace the kernels use (core's TypeScript lib has no DOM types). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { readonly exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
}

/** The functions kernels.wat exports (see the comments there for their parameters). */
export interface KernelExports {
  critical_steps(...args: number[]): number;
  critical_steps_whole(...args: number[]): number;
  reward(...args: number[]): number;
}

/** An instance of the kernels module and its memory; bytes from `base` on are free for a call. */
export interface Arena {
  /** The instance's memory. */
  readonly memory: WasmMemory;
  /** The instance's functions. */
  readonly kernels: KernelExports;
  /** The first byte not owned by arrays handed out: a call lays its scratch out from here. */
  readonly base: number;
}

const PAGE = 65536;
/** The largest memory an arena takes: 2 GiB, well inside wasm32's 4 GiB and every engine's limit. */
const MAX_ARENA_BYTES = 2 ** 31;

/**
 * A module that uses a SIMD instruction (i8x16.popcnt): `WebAssembly.validate` accepts it
 * exactly where the runtime implements the final SIMD proposal.
 */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

let kernelsModule: object | null | undefined;

/** The compiled kernels module, or null where the runtime cannot compile it. */
function compiledKernels(): object | null {
  if (kernelsModule !== undefined) return kernelsModule;
  const api = wasmApi();
  kernelsModule = null;
  if (api === undefined || typeof atob !== 'function') return kernelsModule;
  try {
    if (!api.validate(SIMD_PROBE)) return kernelsModule;
    const text = atob(KERNELS_WASM_BASE64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    // Synchronous compilation: the module is under the 4 KiB that browsers allow on their main
    // thread (a test checks its size).
    kernelsModule = new api.Module(bytes);
  } catch {
    kernelsModule = null;
  }
  return kernelsModule;
}

/**
 * True when this runtime runs WebAssembly SIMD (128-bit): `WebAssembly.validate` accepts a
 * module with a SIMD instruction and the kernels module compiles. Node ≥ 16.4 and the current
 * Chrome, Firefox and Safari do.
 */
export function wasmSimdSupported(): boolean {
  return compiledKernels() !== null;
}

/** Arenas whose arrays were handed out, by their memory's buffer (stable: they never grow). */
const arenasByBuffer = new WeakMap<ArrayBuffer, Arena>();

/**
 * A new arena of at least `bytes` bytes whose first `owned` bytes belong to arrays handed out,
 * registered so that the kernels find it from those arrays' buffer; undefined when WebAssembly
 * SIMD is missing or the memory cannot be had.
 */
export function createArena(bytes: number, owned: number): Arena | undefined {
  const module = compiledKernels();
  const api = wasmApi();
  if (module === null || api === undefined || !(bytes <= MAX_ARENA_BYTES)) return undefined;
  try {
    const memory = new api.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) });
    const instance = new api.Instance(module, { env: { memory } });
    const arena: Arena = { memory, kernels: instance.exports as unknown as KernelExports, base: align(owned) };
    arenasByBuffer.set(memory.buffer, arena);
    return arena;
  } catch {
    return undefined;
  }
}

/** The arena whose memory holds `view`, if the view was handed out by one. */
export function arenaOf(view: ArrayBufferView): Arena | undefined {
  return arenasByBuffer.get(view.buffer as ArrayBuffer);
}

let scratch: Arena | undefined;

/**
 * The shared scratch arena with at least `bytes` bytes, grown when needed (its old views are
 * then detached: callers take views after this call); undefined when that is not possible.
 */
export function scratchArena(bytes: number): Arena | undefined {
  if (!(bytes <= MAX_ARENA_BYTES)) return undefined;
  if (scratch === undefined) {
    const module = compiledKernels();
    const api = wasmApi();
    if (module === null || api === undefined) return undefined;
    try {
      const memory = new api.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) });
      scratch = { memory, kernels: new api.Instance(module, { env: { memory } }).exports as unknown as KernelExports, base: 0 };
    } catch {
      return undefined;
    }
  }
  const missing = bytes - scratch.memory.buffer.byteLength;
  if (missing > 0) {
    try {
      scratch.memory.grow(Math.ceil(missing / PAGE));
    } catch {
      return undefined;
    }
  }
  return scratch;
}

/** `offset` rounded up to a multiple of 16 bytes (one SIMD vector). */
function align(offset: number): number {
  return Math.ceil(offset / 16) * 16;
}

/**
 * Byte offsets for regions of the given sizes laid one after another from `base`, each aligned
 * to 16 bytes and followed by 16 spare bytes (a kernel may read, never write, one vector past a
 * region's end), and the end of the last.
 */
export function layOut(base: number, sizes: readonly number[]): { offsets: number[]; end: number } {
  const offsets: number[] = [];
  let at = base;
  for (const size of sizes) {
    const start = align(at);
    offsets.push(start);
    at = start + size + 16;
  }
  return { offsets, end: at };
}
