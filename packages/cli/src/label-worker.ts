/**
 * The worker thread of `parl reward --threads N` / `parl critical-steps --threads N` (loaded by
 * piscina from `dist/label-worker.js`): labels one chunk of JSONL lines per task.
 *
 * @module
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { labelChunk, type LabelChunkJob, type LabelledChunk } from './io/label-chunk.js';
import { labelFieldsOf, type LabelFieldsOf, type LabelSpec } from './io/labellers.js';

/** One task: a chunk and the labelling it gets. */
export interface LabelChunkTask extends LabelChunkJob {
  /** The command and its flags. */
  readonly spec: LabelSpec;
}

/** The labeller of each spec this thread has seen (one per run: the pool lives for one command). */
const labellers = new Map<string, LabelFieldsOf>();
/** Warning keys this thread reported already; the main thread keeps the run-wide set. */
const hintsSeen = new Set<string>();

/**
 * A value a message can carry: primitives as they are; an object or array (which may be nested
 * deeper than the structured clone can go without overflowing the thread's stack) as undefined —
 * the error's message, sent beside it, already shows it.
 */
function sendable(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? undefined : value;
}

/**
 * Label one chunk (piscina's task function).
 *
 * @param task - the chunk and the spec to label it with
 */
export default function labelChunkTask(task: LabelChunkTask): LabelledChunk {
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
  // The output bytes are moved to the main thread, not copied.
  return move({ [transferableSymbol]: [chunk.text.buffer], [valueSymbol]: chunk } as never) as unknown as LabelledChunk;
}
