/**
 * Typo hints for record fields: an unknown field whose name is close to a spec field
 * (`num_subagent`, `numSubagents`, `stages[0].main_step`) is almost always a misspelling that
 * would otherwise be ignored in silence. The CLI warns with {@link recordFieldHints}; the library
 * rejects such a field when validation is `strict`.
 *
 * @module
 */
import { fieldPath } from './errors.js';
import { MAX_NESTING_DEPTH } from './nesting-depth.js';

/** The fields of a spec §5 record. */
export const EPISODE_RECORD_FIELDS: readonly string[] = [
  'id',
  'training_step',
  'num_subagents',
  'assigned_subtasks',
  'completed_subtasks',
  'success',
  'quality',
  'r_perf',
  'trajectory_features',
  'stages',
];

/**
 * The computed fields that labelling adds (spec §2 and §3, plus `mean_width` and the budget
 * fields): known too, because a labelled record is valid input (spec §5.1).
 */
export const LABEL_FIELDS: readonly string[] = [
  'total_reward',
  'r_parallel',
  'r_finish',
  'lambda1',
  'lambda2',
  'instantiation_component',
  'finish_component',
  'task_component',
  'critical_steps',
  'total_steps',
  'parallelism',
  'num_stages',
  'max_width',
  'mean_width',
  'within_budget',
  'budget_cut_stage',
];

/** The fields of a stage (`stages[i]`). */
export const STAGE_FIELDS: readonly string[] = ['main_steps', 'sub_steps'];

/** The fields of a sub-agent run (`stages[i].sub_steps[j]` as an object; `stages` for a nested one, spec §5.2; `wait_steps`, spec §2). */
export const SUB_AGENT_FIELDS: readonly string[] = ['steps', 'stages', 'finished', 'wait_steps'];

/** An unknown field that looks like a misspelt known one. */
export interface FieldHint {
  /** The path of the unknown field, e.g. `num_subagent` or `stages[0].main_step`. */
  readonly field: string;
  /** The known field it is probably meant to be (its name only, e.g. `num_subagents`). */
  readonly suggestion: string;
  /** The unknown field's value. */
  readonly value: unknown;
  /** One line for a person: `num_subagent: did you mean num_subagents?`. */
  readonly message: string;
}

/** The name without case and separators: `numSubagents`, `Num-Subagents` and `num_subagents` agree. */
function folded(name: string): string {
  return name.toLowerCase().replace(/[_\-\s.]/g, '');
}

/** Optimal string alignment distance (Levenshtein with adjacent swaps), stopping early past `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = new Array<number>(b.length + 1).fill(0);
    row[0] = i;
    rows.push(row);
  }
  const first = rows[0] as number[];
  for (let j = 0; j <= b.length; j++) first[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const above = rows[i - 1] as number[];
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (rows[i - 2] as number[])[j - 2] as number + 1);
      row[j] = d;
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The known field `name` most probably misspells, or undefined when it is known itself or not
 * close to any: equal once case and `_`/`-` are ignored (`numSubagents`), or at most one edit
 * away (two for names of eight letters or more, none for names of three or fewer: `ids` is not
 * taken for `id`), counting a swap of neighbours as one edit.
 *
 * @param name - a field name found in a record
 * @param known - the field names it may be meant as (default: a spec §5 record's fields, and the
 *   fields labelling adds)
 *
 * @example
 * ```ts
 * suggestField('num_subagent'); // 'num_subagents'
 * suggestField('numSubagents'); // 'num_subagents'
 * suggestField('prompt'); // undefined: an extra field, kept as it is
 * ```
 */
export function suggestField(name: string, known: readonly string[] = [...EPISODE_RECORD_FIELDS, ...LABEL_FIELDS]): string | undefined {
  if (known.includes(name)) return undefined;
  const f = folded(name);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const c = folded(candidate);
    if (c === f) return candidate;
    const shorter = Math.min(name.length, candidate.length);
    const limit = shorter >= 8 ? 2 : shorter >= 4 ? 1 : 0;
    const d = editDistance(f, c, limit);
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Characters that would break a one-line message; a key holding one is shown as a JSON string. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** The fields a top-level record key is compared with. */
const RECORD_LEVEL_FIELDS: readonly string[] = [...EPISODE_RECORD_FIELDS, ...LABEL_FIELDS];

/** Keys remembered per list of known fields before the memo starts over (bounds its memory). */
const SUGGESTION_MEMO_KEYS = 4096;

/**
 * {@link suggestField}'s answers per list of known fields: a labelled file repeats the same keys
 * on every record, and the edit distances dominate the cost of a record with extra fields.
 */
const suggestionMemo = new WeakMap<readonly string[], Map<string, string | null>>();

function memoSuggestion(key: string, known: readonly string[]): string | undefined {
  let memo = suggestionMemo.get(known);
  if (memo === undefined) {
    memo = new Map();
    suggestionMemo.set(known, memo);
  }
  const seen = memo.get(key);
  if (seen !== undefined) return seen ?? undefined;
  const suggestion = suggestField(key, known);
  if (memo.size >= SUGGESTION_MEMO_KEYS) memo.clear();
  memo.set(key, suggestion ?? null);
  return suggestion;
}

/**
 * The hints of one object's keys. `pathOf` gives the object's field path (undefined: the record
 * itself); it is called only when a key has a suggestion, so valid records build no path strings.
 */
function hintsIn(value: Record<string, unknown>, known: readonly string[], pathOf: (() => string) | undefined, out: FieldHint[]): void {
  for (const key of Object.keys(value)) {
    const suggestion = memoSuggestion(key, known);
    if (suggestion === undefined) continue;
    const path = pathOf?.();
    const shown = CONTROL_CHARACTERS.test(key) ? JSON.stringify(key) : key;
    const field = path === undefined ? key : fieldPath(path, key);
    const fieldShown = path === undefined ? shown : fieldPath(path, shown);
    out.push({ field, suggestion, value: value[key], message: `${fieldShown}: did you mean ${suggestion}?` });
  }
}

/**
 * The unknown fields of a record that look like misspelt spec fields, at every level (the record,
 * its stages, their sub-agent runs), in the order they appear. Empty for anything that is not an
 * object, and for a record whose extra fields are far from every known name (`task`, `prompt`).
 *
 * @param record - a parsed JSON value (not validated)
 *
 * @example
 * ```ts
 * recordFieldHints({ num_subagent: 25, success: true }).map((h) => h.message);
 * // ['num_subagent: did you mean num_subagents?']
 * recordFieldHints({ stages: [{ main_step: 1 }] })[0]?.message;
 * // 'stages[0].main_step: did you mean main_steps?'
 * ```
 */
export function recordFieldHints(record: unknown): FieldHint[] {
  const out: FieldHint[] = [];
  if (!isPlainObject(record)) return out;
  hintsIn(record, RECORD_LEVEL_FIELDS, undefined, out);
  stageHints(record['stages'], 'stages', 0, out);
  return out;
}

/** The hints inside a `stages` array at `path`, and inside its nested entries (spec §5.2), to the depth validation allows. */
function stageHints(stages: unknown, path: string, depth: number, out: FieldHint[]): void {
  if (!Array.isArray(stages) || depth > MAX_NESTING_DEPTH) return;
  stages.forEach((stage: unknown, t) => {
    if (!isPlainObject(stage)) return;
    const stagePath = (): string => fieldPath(path, t);
    hintsIn(stage, STAGE_FIELDS, stagePath, out);
    const subs = stage['sub_steps'];
    if (!Array.isArray(subs)) return;
    subs.forEach((sub: unknown, i) => {
      if (!isPlainObject(sub)) return;
      const subPath = (): string => fieldPath(fieldPath(stagePath(), 'sub_steps'), i);
      hintsIn(sub, SUB_AGENT_FIELDS, subPath, out);
      if (sub['stages'] !== undefined) stageHints(sub['stages'], fieldPath(subPath(), 'stages'), depth + 1, out);
    });
  });
}
