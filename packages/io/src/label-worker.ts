/**
 * The one labelling thread of PARL-TS (loaded by piscina from `dist/label-worker.js`): every
 * pool of `@parl/io` — `parl reward --threads N`, `parl critical-steps --threads N`, and
 * `parl serve`'s `/v1/rewards` — runs its tasks here. A task is a chunk of JSONL lines or a
 * request body; the labelling's config arrives
 * resolved with the task, never as flags. Large results are moved back, not copied.
 *
 * @module
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { labelChunk, type LabelChunkJob, type LabelledChunk } from './label-chunk.js';
import {
  checkRecordsBody,
  labelBodySlice,
  labelRecordsBody,
  type BodyExtras,
  type CheckedBody,
  type LabelBodyFailure,
  type LabelBodyTask,
  type LabelledBody,
  type LabelSliceTask,
} from './labelled-body.js';
import { labelFieldsOf, type LabelFieldsOf, type LabelSpec } from './labellers.js';

/** A chunk of JSONL lines and the labelling it gets. */
export interface LabelChunkTask extends LabelChunkJob {
  /** `chunk`. */
  readonly kind: 'chunk';
  /** The labelling and its resolved config. */
  readonly spec: LabelSpec;
}

/** A `/v1/rewards` body, and the module of the caller's {@link BodyExtras} (its `bodyExtras` export), if any. */
export interface LabelBodyThreadTask extends LabelBodyTask {
  /** `body`. */
  readonly kind: 'body';
  /** A module URL exporting `bodyExtras`. */
  readonly extrasModule?: string;
}

/** The first pass over a large body: check every record and cut it into slices (see `checkRecordsBody`). */
export interface CheckBodyThreadTask extends LabelBodyTask {
  /** `check`. */
  readonly kind: 'check';
  /** Bytes per slice, about. */
  readonly sliceBytes: number;
}

/** What a {@link CheckBodyThreadTask} gives back: the check, and the body moved back to the caller. */
export interface CheckedBodyResult {
  /** The check. */
  readonly checked: CheckedBody | LabelBodyFailure;
  /** The body, moved back. */
  readonly body: Uint8Array;
}

/** One slice of a checked body (see `labelBodySlice`), and the module of the caller's extras. */
export interface LabelSliceThreadTask extends LabelSliceTask {
  /** `slice`. */
  readonly kind: 'slice';
  /** A module URL exporting `bodyExtras`. */
  readonly extrasModule?: string;
}

/**
 * A caller's own work, run on the same threads: export `name` of `module` is called with `input`.
 * The export returns a {@link ThreadCallResult}; its `transfer` buffers are moved back, not copied.
 */
export interface ModuleCallTask {
  /** `call`. */
  readonly kind: 'call';
  /** A module URL. */
  readonly module: string;
  /** The name of its export to call. */
  readonly name: string;
  /** What the export is called with (structured-cloned to the thread; byte arrays moved). */
  readonly input: unknown;
}

/** What an export run on a labelling thread (see `BodyLabeller.call`) returns (or resolves to). */
export interface ThreadCallResult {
  /** The result, structured-cloned back. */
  readonly value: unknown;
  /** Array buffers inside `value` to move back rather than copy. */
  readonly transfer?: readonly ArrayBufferLike[];
}

/** Any task of the labelling thread. */
export type LabelThreadTask = LabelChunkTask | LabelBodyThreadTask | CheckBodyThreadTask | LabelSliceThreadTask | ModuleCallTask;

/** The labeller of each spec this thread has seen (one per run: the pool lives for one command). */
const labellers = new Map<string, LabelFieldsOf>();
/** Warning keys this thread reported already; the main thread keeps the run-wide set. */
const hintsSeen = new Set<string>();
/** The extras of each module named, loaded once. */
const extrasByModule = new Map<string, Promise<BodyExtras>>();
/** The modules of {@link ModuleCallTask}s, loaded once each. */
const callModules = new Map<string, Promise<Record<string, unknown>>>();

/**
 * A value a message can carry: primitives as they are; an object or array (which may be nested
 * deeper than the structured clone can go without overflowing the thread's stack) as undefined —
 * the error's message, sent beside it, already shows it.
 */
function sendable(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? undefined : value;
}

/** `value` with `buffers` moved to the main thread rather than copied (empty or repeated ones left out). */
function moved<T>(value: T, buffers: readonly ArrayBufferLike[]): T {
  const list = buffers.filter((b, i, all) => b instanceof ArrayBuffer && b.byteLength > 0 && all.indexOf(b) === i);
  return move({ [transferableSymbol]: list, [valueSymbol]: value } as never) as unknown as T;
}

function runChunk(task: LabelChunkTask): LabelledChunk {
  const key = JSON.stringify(task.spec);
  let fieldsOf = labellers.get(key);
  if (fieldsOf === undefined) {
    fieldsOf = labelFieldsOf(task.spec);
    labellers.set(key, fieldsOf);
  }
  const labelled = labelChunk(task, fieldsOf, hintsSeen);
  const chunk = labelled.events.every((e) => e.kind === 'hint')
    ? labelled
    : { ...labelled, events: labelled.events.map((e) => (e.kind === 'error' ? { ...e, value: sendable(e.value) } : e)) };
  return moved(chunk, [chunk.text.buffer]);
}

async function extrasOf(module: string): Promise<BodyExtras> {
  let extras = extrasByModule.get(module);
  if (extras === undefined) {
    extras = import(module).then((m: { bodyExtras?: BodyExtras }) => {
      if (m.bodyExtras === undefined) throw new Error(`${module} has no bodyExtras export`);
      return m.bodyExtras;
    });
    extrasByModule.set(module, extras);
  }
  return extras;
}

/** The buffers of a labelled body, moved back to the caller rather than copied. */
function bodyBuffers(out: LabelledBody): ArrayBufferLike[] {
  const buffers = [out.answer.buffer, out.extraBytes.buffer, out.spans.buffer, out.numbers.buffer];
  if (out.posted !== undefined) buffers.push(out.posted.bytes.buffer, out.posted.spans.buffer);
  return buffers;
}

async function runBody(task: LabelBodyThreadTask): Promise<LabelledBody | LabelBodyFailure> {
  const extras = task.extrasModule === undefined ? undefined : await extrasOf(task.extrasModule);
  const out = labelRecordsBody(task, extras);
  if ('error' in out) return out;
  return moved(out, bodyBuffers(out));
}

function runCheck(task: CheckBodyThreadTask): CheckedBodyResult {
  const checked = checkRecordsBody(task, task.sliceBytes);
  const buffers: ArrayBufferLike[] = [task.body.buffer];
  if (!('error' in checked) && checked.slices !== undefined) buffers.push(checked.slices.buffer);
  return moved({ checked, body: task.body }, buffers);
}

async function runSlice(task: LabelSliceThreadTask): Promise<LabelledBody> {
  const extras = task.extrasModule === undefined ? undefined : await extrasOf(task.extrasModule);
  const out = labelBodySlice(task, extras);
  return moved(out, bodyBuffers(out));
}

async function runCall(task: ModuleCallTask): Promise<unknown> {
  let loaded = callModules.get(task.module);
  if (loaded === undefined) {
    loaded = import(task.module) as Promise<Record<string, unknown>>;
    callModules.set(task.module, loaded);
  }
  const fn = (await loaded)[task.name];
  if (typeof fn !== 'function') throw new Error(`${task.module} has no function export ${task.name}`);
  const out = (await (fn as (input: unknown) => ThreadCallResult | Promise<ThreadCallResult>)(task.input)) as ThreadCallResult;
  return moved(out.value, out.transfer ?? []);
}

/**
 * Run one task (piscina's task function): a JSONL chunk is labelled synchronously; a body may
 * first load its caller's extras module; a call loads its module once.
 *
 * @param task - the work and the labelling config it gets
 */
export default function labelTask(task: LabelThreadTask): LabelledChunk | CheckedBodyResult | Promise<LabelledBody | LabelBodyFailure> | Promise<unknown> {
  if (task.kind === 'chunk') return runChunk(task);
  if (task.kind === 'call') return runCall(task);
  if (task.kind === 'check') return runCheck(task);
  if (task.kind === 'slice') return runSlice(task);
  return runBody(task);
}
