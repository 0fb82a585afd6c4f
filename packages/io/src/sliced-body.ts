/**
 * Labelling a large body without holding its whole answer: a first pass reads and labels every
 * record, keeping only where runs of about {@link BODY_SLICE_BYTES} bytes of whole records start
 * and end (what fails, fails here, before anything is answered); then each slice is labelled when
 * the caller asks for it, the next one while the caller sends or logs the one before. The answer of
 * a record is several times its bytes (the labelled fields), so a body whose answer is held whole
 * costs many times the body; here the caller holds the body and two slices' answers at a time.
 * A body of one slice or less is labelled in one go, as before.
 *
 * @module
 */
import { labelBodySlice, checkRecordsBody, labelRecordsBody, sliceBytesOf, type BodyExtras, type CheckedBody, type LabelBodyFailure, type LabelBodyTask, type LabelledBody, type LabelSliceTask } from './labelled-body.js';
import type { BodyFormat } from './records-body.js';

/**
 * Bytes of body per slice (whole records: a record longer than this is a slice by itself). A
 * quarter of {@link BODY_WHOLE_BYTES}: what a slice brings into memory (its answer, three or more
 * times its bytes, and the labelling thread's objects for it) is a quarter of what a 1 MiB slice
 * brought, for four times the thread round trips of a large body.
 */
export const BODY_SLICE_BYTES = 1 << 18;

/** Bytes of body labelled in one go at most (larger bodies are checked, then labelled in slices). */
export const BODY_WHOLE_BYTES = 1 << 20;

/** A body labelled, or being labelled, slice by slice. */
export interface LabelledSlices {
  /** How the body was written (and so the answer). */
  readonly format: BodyFormat;
  /** Records in the body. */
  readonly count: number;
  /**
   * True: one slice, which is the whole answer (a JSON body's brackets included). False: the
   * answer is, for a JSON body, `[` + the slices' answers joined by `,` + `]`; for NDJSON, the
   * slices' answers one after another.
   */
  readonly whole: boolean;
  /**
   * The labelled slices, in order, each labelled when asked for (the next one is started as one
   * is handed out). The body's place in the labelling's bounds is held until the iteration ends or
   * is left (`break`, a throw): always iterate it.
   */
  slices(): AsyncGenerator<LabelledBody, void, undefined>;
}

/** Where the passes run: on this thread, or on the pool's threads. */
export interface SlicePasses {
  /** Label a small body in one go. */
  whole(task: LabelBodyTask): Promise<LabelledBody | LabelBodyFailure>;
  /** The first pass; gives the body back (it may have been moved to a thread). */
  check(task: LabelBodyTask, sliceBytes: number): Promise<{ readonly checked: CheckedBody | LabelBodyFailure; readonly body: Uint8Array }>;
  /** Label one slice. */
  slice(task: LabelSliceTask): Promise<LabelledBody>;
}

/**
 * Label `task`'s body with `passes`: in one go when it is at most `wholeBytes`, else checked
 * whole and then labelled a slice of about `sliceBytes` at a time as the caller iterates.
 * `task.withoutExtraBytes` applies to the slices only: a body labelled in one go gets its
 * {@link LabelledBody.extraBytes} whatever it says.
 * `release` is called once, when the body is done with (labelled whole, refused, or its slices
 * iterated or left).
 */
export async function labelInSlices(task: LabelBodyTask, passes: SlicePasses, sliceBytes: number, release: () => void, wholeBytes = sliceBytes): Promise<LabelledSlices | LabelBodyFailure> {
  let released = false;
  const done = (): void => {
    if (!released) (released = true), release();
  };
  try {
    if (task.body.byteLength <= wholeBytes) {
      // `withoutExtraBytes` is for the slices of a large body: one labelled whole gets its extra bytes.
      const { withoutExtraBytes: _slicesOnly, ...whole } = task;
      const out = await passes.whole(whole);
      done();
      if ('error' in out) return out;
      return {
        format: out.format,
        count: out.count,
        whole: true,
        async *slices() {
          yield out;
        },
      };
    }
    const { checked, body } = await passes.check(task, sliceBytes);
    if ('error' in checked) {
      done();
      return checked;
    }
    if (checked.slices === undefined) {
      // An array the element scan did not read (never a well-formed one): labelled whole.
      const out = await passes.whole({ ...task, body });
      done();
      if ('error' in out) return out;
      return { format: out.format, count: out.count, whole: true, async *slices() { yield out; } };
    }
    const n = checked.slices.length / 2;
    const sliceTask = (i: number): LabelSliceTask => ({ body: sliceBytesOf(body, checked, i), format: checked.format, config: task.config, ...(task.withoutExtraBytes === true ? { withoutExtraBytes: true } : {}) });
    return {
      format: checked.format,
      count: checked.count,
      whole: false,
      async *slices() {
        let next: Promise<LabelledBody> | undefined;
        try {
          next = n > 0 ? passes.slice(sliceTask(0)) : undefined;
          for (let i = 0; i < n; i++) {
            const current = await (next as Promise<LabelledBody>);
            next = i + 1 < n ? passes.slice(sliceTask(i + 1)) : undefined;
            // Left unawaited if the caller stops: not an unhandled rejection.
            next?.catch(() => undefined);
            yield current;
          }
        } finally {
          done();
        }
      },
    };
  } catch (err) {
    done();
    throw err;
  }
}

/**
 * {@link labelInSlices} on this thread (no pool): for a server that labels on its event loop.
 *
 * @example
 * ```ts
 * const body = new TextEncoder().encode('[{"num_subagents": 4, "r_perf": 1}]');
 * const out = await labelRecordsBodyInSlices({ body, contentType: 'application/json', config: {} });
 * ```
 */
export function labelRecordsBodyInSlices(task: LabelBodyTask, extras?: BodyExtras, sliceBytes?: number): Promise<LabelledSlices | LabelBodyFailure> {
  const passes: SlicePasses = {
    whole: (t) => Promise.resolve(labelRecordsBody(t, extras)),
    check: (t, bytes) => Promise.resolve({ checked: checkRecordsBody(t, bytes), body: t.body }),
    slice: (t) => Promise.resolve(labelBodySlice(t, extras)),
  };
  return labelInSlices(task, passes, sliceBytes ?? BODY_SLICE_BYTES, () => undefined, sliceBytes ?? BODY_WHOLE_BYTES);
}
