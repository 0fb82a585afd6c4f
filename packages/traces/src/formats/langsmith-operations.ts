/**
 * LangSmith runs as the SDK posts them: a run's create (`post`, no `end_time` yet) and, in a later
 * batch, its update (`patch`, the same `id` with `end_time`, `outputs`, `error`). Saved one per
 * line, a file of these holds two objects per run that did not fit one batch (the SDK merges the
 * pair itself when both fall in one). `LangSmithRunOperations` holds each open create until
 * the update with its id arrives and hands back the two merged (the update's fields over the
 * create's), as LangSmith's ingest merges them; a create never updated is read as it is at the end
 * of the input, and so reported as a run that never ended.
 *
 * @module
 */
import { TraceInputError } from '../errors.js';
import { isLangSmithRun } from './langsmith.js';

/**
 * The most LangSmith run creates (runs posted without `end_time`) that `readTraces` holds open at
 * once while waiting for the updates with their ids; one more is an error naming its line.
 */
export const MAX_OPEN_LANGSMITH_RUNS = 100_000;

interface OpenRun {
  readonly run: Record<string, unknown>;
  readonly location: string;
}

function isOpenCreate(v: Record<string, unknown>): boolean {
  const end = v['end_time'];
  const children = v['child_runs'];
  // A nested run tree (`child_runs` filled in) is an export, not a create: it is read as it is.
  return isLangSmithRun(v) && typeof v['id'] === 'string' && (end === undefined || end === null) && !(Array.isArray(children) && children.length > 0);
}

/** Pairs a stream's LangSmith run creates with their updates. */
export class LangSmithRunOperations {
  private readonly open = new Map<string, OpenRun>();

  /** @param limit - the most creates held open at once */
  constructor(private readonly limit: number = MAX_OPEN_LANGSMITH_RUNS) {}

  /** Number of creates held open (for tests and memory checks). */
  get openRuns(): number {
    return this.open.size;
  }

  /**
   * The value to read now for one JSON value of the input: the value itself; nothing, for a run
   * create held until its update; or, for the update of a held create, the two merged.
   *
   * @throws {@link TraceInputError} when more than `limit` creates would be open
   */
  take(value: unknown, location: string): { value: unknown; location: string } | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { value, location };
    const v = value as Record<string, unknown>;
    const id = v['id'];
    const held = typeof id === 'string' ? this.open.get(id) : undefined;
    if (held !== undefined) {
      this.open.delete(id as string);
      return { value: { ...held.run, ...v }, location: `${location} (the update of the run created at ${held.location})` };
    }
    if (!isOpenCreate(v)) return { value, location };
    if (this.open.size >= this.limit) {
      throw new TraceInputError(
        location,
        `${this.open.size + 1} LangSmith runs created and not yet updated`,
        `at most ${this.limit} runs open at once (a run created without end_time waits for the update with its id)`,
        undefined,
      );
    }
    this.open.set(id as string, { run: v, location });
    return undefined;
  }

  /** The creates never updated, in arrival order, to be read as they are; none are held afterwards. */
  drain(): { value: unknown; location: string }[] {
    const out = [...this.open.values()].map((r) => ({ value: r.run, location: r.location }));
    this.open.clear();
    return out;
  }
}
