/**
 * The spec §5 episode record: its JSON type, and its validation into a normalised episode that
 * the reward and critical-steps code can trust.
 *
 * @module
 */
import {
  ParlInputError,
  fieldPath,
  requireArray,
  requireCount,
  requireFinite,
  requireNonNegative,
  requireObject,
} from './errors.js';
import { recordFieldHints } from './field-hints.js';
import { MAX_NESTING_DEPTH } from './nesting-depth.js';
import type { NormalizedStage } from './normalized-stage.js';
import { stageTotals } from './stage-sums.js';

/** One sub-agent run with its finish flag: `{ "steps": 4, "finished": true }`. */
export interface SubAgentRun {
  /** Steps the sub-agent took (finite, ≥ 0). */
  readonly steps: number;
  /** Whether it finished its assigned subtask; a sub-agent without the flag counts as finished. */
  readonly finished?: boolean;
  /**
   * W (spec §2): steps of its group that elapsed before it started, when it could not start with
   * its group (it waited for a free slot under a concurrency limit). Its term in the stage's max
   * is W + steps; waiting is not work. Finite, ≥ 0; absent means 0.
   */
  readonly wait_steps?: number;
}

/**
 * A sub-agent that launched sub-agents of its own (spec §5.2): its own stages instead of `steps`
 * (its model calls are their `main_steps`), nested at most {@link MAX_NESTING_DEPTH} levels.
 */
export interface NestedSubAgentRun {
  /** The sub-agent's own stages, following spec §5 recursively. */
  readonly stages: readonly StageRecord[];
  /** Whether it finished its assigned subtask; a sub-agent without the flag counts as finished. */
  readonly finished?: boolean;
  /** W (spec §2), as {@link SubAgentRun.wait_steps}: its term in the max is W + its own critical steps. */
  readonly wait_steps?: number;
}

/** A sub-agent in a stage: its steps alone, a {@link SubAgentRun}, or a {@link NestedSubAgentRun}. */
export type SubAgentEntry = number | SubAgentRun | NestedSubAgentRun;

export { MAX_NESTING_DEPTH };

/** One orchestrator stage: the orchestrator's own steps, then the group it launched (maybe none). */
export interface StageRecord {
  /** S_main: the orchestrator's steps in this stage (finite, ≥ 0; fractional allowed). */
  readonly main_steps: number;
  /** S_sub,i for each sub-agent of the group; missing or empty when the stage launched none. */
  readonly sub_steps?: readonly SubAgentEntry[];
}

/**
 * One episode as a JSON object (spec §5). Every field is optional unless a computation needs it.
 *
 * The type lists the spec fields only, so that TypeScript rejects a misspelt one in an object
 * literal (`num_subagent`). At run time other fields are kept (the CLI passes them through); to
 * carry your own in TypeScript, extend the type (`EpisodeRecord & { task: string }`). Parsed JSON
 * of unknown shape goes through {@link validateRecord}.
 */
export type EpisodeRecord = {
  /** Echoed in outputs. */
  readonly id?: string | number;
  /** Training step s used for λ1(s), λ2(s). */
  readonly training_step?: number;
  /** Sub-agents launched; counted from `stages` when absent. */
  readonly num_subagents?: number;
  /** Subtasks assigned; defaults to `num_subagents` (or counted from `finished` flags). */
  readonly assigned_subtasks?: number;
  /** Subtasks completed; defaults to `assigned_subtasks` (or counted from `finished` flags). */
  readonly completed_subtasks?: number;
  /** Task success, boolean or 0/1 (with optional `quality`, or with `trajectory_features`). */
  readonly success?: boolean | 0 | 1;
  /** Task quality multiplier for `success` (default 1). */
  readonly quality?: number;
  /** The task reward given directly. */
  readonly r_perf?: number;
  /** Per-trajectory features; r_perf = clamp(mean × success, 0, 1). */
  readonly trajectory_features?: readonly number[];
  /** The stages of the episode. */
  readonly stages?: readonly StageRecord[];
};

export type { NormalizedStage };

/** How r_perf is given in a record; exactly one way is allowed. */
export type PerfSource =
  | {
      /** `r_perf` given directly. */
      readonly kind: 'direct';
      /** Its value (finite). */
      readonly value: number;
    }
  | {
      /** `success` with optional `quality`. */
      readonly kind: 'success';
      /** Whether the task succeeded. */
      readonly success: boolean;
      /** The quality multiplier (default 1). */
      readonly quality: number;
    }
  | {
      /** `trajectory_features` with `success`. */
      readonly kind: 'features';
      /** Whether the task succeeded. */
      readonly success: boolean;
      /** The features (finite, at least one). */
      readonly features: readonly number[];
    }
  | {
      /** The record gives no way to compute r_perf. */
      readonly kind: 'none';
    };

/** A record after validation: every count resolved, every number checked. */
export interface NormalizedEpisode {
  /** `id` as given. */
  readonly id: string | number | undefined;
  /** `training_step` as given. */
  readonly trainingStep: number | undefined;
  /** Stages, when the record has them. */
  readonly stages: readonly NormalizedStage[] | undefined;
  /** Sub-agents launched (given, or counted from stages, else 0). */
  readonly numSubagents: number;
  /** Assigned subtasks, resolved per spec §5. */
  readonly assigned: number;
  /** Completed subtasks, resolved per spec §5. */
  readonly completed: number;
  /** True when assigned or completed was counted from `finished` flags rather than given. */
  readonly countsFromStages: boolean;
  /** How r_perf is given. */
  readonly perf: PerfSource;
}

function readSuccess(value: unknown, field: string): boolean {
  if (value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  throw new ParlInputError(field, value, 'a boolean or 0/1');
}

/**
 * Validate one stage array (spec §5 `stages`) into normalised stages.
 *
 * @param value - the untrusted `stages` value
 * @param field - its field path (default `stages`)
 */
export function validateStages(value: unknown, field = 'stages'): NormalizedStage[] {
  return validateStagesAt(value, field, 0);
}

/** {@link validateStages} for stages `depth` levels of nested entries down (0: the record's own). */
function validateStagesAt(value: unknown, field: string, depth: number): NormalizedStage[] {
  const raw = requireArray(value, field);
  const out: NormalizedStage[] = new Array(raw.length);
  // Field paths (`stages[2].sub_steps[0]`) are built only for an error: on valid records, which
  // are nearly all of them, building them had cost more than the checks.
  for (let t = 0; t < raw.length; t++) {
    const item = raw[t];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ParlInputError(fieldPath(field, t), item, 'an object');
    const stage = item as Record<string, unknown>;
    const mainValue = stage['main_steps'];
    const main = isNonNegative(mainValue) ? mainValue : requireNonNegative(mainValue, fieldPath(fieldPath(field, t), 'main_steps'));
    const subValue = stage['sub_steps'];
    const subRaw = subValue === undefined ? [] : Array.isArray(subValue) ? (subValue as unknown[]) : requireArray(subValue, fieldPath(fieldPath(field, t), 'sub_steps'));
    const sub: number[] = new Array(subRaw.length);
    const finished: (boolean | undefined)[] = new Array(subRaw.length);
    let work: number[] | undefined;
    let nested: (NormalizedStage[] | undefined)[] | undefined;
    let wait: number[] | undefined;
    for (let i = 0; i < subRaw.length; i++) {
      const entry = subRaw[i];
      if (isNonNegative(entry)) {
        sub[i] = entry;
        finished[i] = undefined;
        continue;
      }
      const ef = fieldPath(fieldPath(fieldPath(field, t), 'sub_steps'), i);
      if (typeof entry === 'number') {
        sub[i] = requireNonNegative(entry, ef);
        finished[i] = undefined;
      } else if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
        const e = entry as Record<string, unknown>;
        const fin = e['finished'];
        if (fin !== undefined && typeof fin !== 'boolean') {
          throw new ParlInputError(fieldPath(ef, 'finished'), fin, 'a boolean');
        }
        finished[i] = fin;
        const waited = e['wait_steps'];
        if (waited !== undefined) {
          if (!isNonNegative(waited)) {
            throw new ParlInputError(fieldPath(ef, 'wait_steps'), waited, 'a finite number ≥ 0 (the steps of its group that ran before it started)');
          }
          wait ??= new Array<number>(subRaw.length).fill(0);
          wait[i] = waited;
        }
        const inner = e['stages'];
        if (inner === undefined) {
          const steps = e['steps'];
          sub[i] = isNonNegative(steps) ? steps : requireNonNegative(steps, fieldPath(ef, 'steps'));
          continue;
        }
        if (e['steps'] !== undefined) {
          throw new ParlInputError(fieldPath(ef, 'steps'), e['steps'], 'absent when stages is given (a sub-agent entry has steps or stages, not both)');
        }
        if (depth >= MAX_NESTING_DEPTH) {
          throw new ParlInputError(fieldPath(ef, 'stages'), inner, `absent: sub-agent entries nest at most ${MAX_NESTING_DEPTH} levels deep`);
        }
        const innerStages = validateStagesAt(inner, fieldPath(ef, 'stages'), depth + 1);
        work ??= [];
        nested ??= [];
        const totals = stageTotals(innerStages);
        sub[i] = totals.critical;
        work[i] = totals.total;
        nested[i] = innerStages;
      } else {
        throw new ParlInputError(ef, entry, 'a finite number ≥ 0 or an object {"steps": number, "finished"?: boolean, "wait_steps"?: number} or {"stages": [...], "finished"?: boolean, "wait_steps"?: number}');
      }
    }
    if (work === undefined || nested === undefined) {
      out[t] = wait === undefined ? { main, sub, finished } : { main, sub, finished, wait };
      continue;
    }
    // A stage with a nested entry: the plain entries' work is their steps.
    for (let i = 0; i < sub.length; i++) {
      if (nested[i] === undefined) {
        work[i] = sub[i] as number;
        nested[i] = undefined;
      }
    }
    out[t] = wait === undefined ? { main, sub, finished, work, nested } : { main, sub, finished, work, nested, wait };
  }
  return out;
}

/** A finite number ≥ 0 (what `requireNonNegative` accepts), checked without naming a field. */
function isNonNegative(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/**
 * True for a record that `parl reward` or `parl critical-steps` wrote (spec §5.1): it carries
 * `total_reward` or `critical_steps`. Its computed fields are recomputed, not read.
 */
export function isLabelledRecord(rec: Readonly<Record<string, unknown>>): boolean {
  return rec['total_reward'] !== undefined || rec['critical_steps'] !== undefined;
}

function readPerf(rec: Record<string, unknown>): PerfSource {
  const hasSuccess = rec['success'] !== undefined;
  const hasQuality = rec['quality'] !== undefined;
  const hasFeatures = rec['trajectory_features'] !== undefined;
  // Spec §5.1: in a labelled record, r_perf beside success or trajectory_features was computed
  // from them, so it is ignored and computed again.
  const hasDirect = rec['r_perf'] !== undefined && !((hasSuccess || hasFeatures) && isLabelledRecord(rec));
  if (hasDirect && (hasSuccess || hasQuality || hasFeatures)) {
    const other = hasSuccess ? 'success' : hasQuality ? 'quality' : 'trajectory_features';
    throw new ParlInputError('r_perf', rec['r_perf'], `given in one way only, but ${other} is given too`, undefined, 'PARL_ERR_CONFLICT');
  }
  if (hasFeatures && hasQuality) {
    throw new ParlInputError('quality', rec['quality'], 'absent when trajectory_features gives r_perf (one way only)', undefined, 'PARL_ERR_CONFLICT');
  }
  if (hasDirect) return { kind: 'direct', value: requireFinite(rec['r_perf'], 'r_perf') };
  if (hasFeatures) {
    const raw = requireArray(rec['trajectory_features'], 'trajectory_features');
    if (raw.length === 0) throw new ParlInputError('trajectory_features', raw, 'a non-empty array of finite numbers');
    const features = raw.map((v, i) => requireFinite(v, fieldPath('trajectory_features', i)));
    if (!hasSuccess) throw new ParlInputError('success', undefined, 'a boolean or 0/1 when trajectory_features is given');
    return { kind: 'features', success: readSuccess(rec['success'], 'success'), features };
  }
  if (hasSuccess) {
    const quality = hasQuality ? requireFinite(rec['quality'], 'quality') : 1;
    return { kind: 'success', success: readSuccess(rec['success'], 'success'), quality };
  }
  if (hasQuality) throw new ParlInputError('success', undefined, 'a boolean or 0/1 when quality is given');
  return { kind: 'none' };
}

/**
 * Validate a spec §5 record and resolve its counts:
 * - `num_subagents` defaults to the number of sub-agents launched over all stages (else 0);
 * - when sub-agents carry `finished`, assigned = sub-agents launched and completed = those not
 *   marked `finished: false`, unless the record gives them;
 * - otherwise assigned defaults to num_subagents and completed to assigned [ref];
 * - completed > assigned is an error.
 *
 * With `options.strict`, an unknown field close to a known one (`num_subagent`,
 * `stages[0].main_step`; see {@link recordFieldHints}) is an error instead of an extra field.
 *
 * @param value - the untrusted record (parsed JSON)
 * @param location - where it came from (`line 17`), prefixed to error messages
 * @param options - `strict`: reject likely misspelt fields
 * @throws {@link ParlInputError} naming the location, field path, value and expectation
 *
 * @example
 * ```ts
 * validateRecord({ num_subagent: 25, r_perf: 1 }).numSubagents; // 0: num_subagent is an extra field
 * validateRecord({ num_subagent: 25, r_perf: 1 }, 'line 3', { strict: true });
 * // throws: line 3: num_subagent must be a known field (did you mean num_subagents?), got 25
 * ```
 */
export function validateRecord(value: unknown, location?: string, options: RecordValidationOptions = {}): NormalizedEpisode {
  try {
    if (options.strict === true) rejectMisspeltFields(value);
    return validateRecordUnlocated(value);
  } catch (err) {
    if (err instanceof ParlInputError && location !== undefined) throw err.at(location);
    throw err;
  }
}

/** Options of {@link validateRecord}. */
export interface RecordValidationOptions {
  /**
   * Reject an unknown field that is close to a known one (a likely typo, which would otherwise
   * be kept as an extra field and ignored). Default false: extra fields are kept, as spec §5 says.
   */
  readonly strict?: boolean;
}

function rejectMisspeltFields(value: unknown): void {
  const hint = recordFieldHints(value)[0];
  if (hint === undefined) return;
  throw new ParlInputError(hint.field, hint.value, `a known field (did you mean ${hint.suggestion}?)`, undefined, 'PARL_ERR_UNKNOWN_NAME');
}

function validateRecordUnlocated(value: unknown): NormalizedEpisode {
  const rec = requireObject(value, 'record');
  const id = rec['id'];
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') {
    throw new ParlInputError('id', id, 'a string or a number');
  }
  const trainingStep = rec['training_step'] === undefined ? undefined : requireNonNegative(rec['training_step'], 'training_step');
  const stages = rec['stages'] === undefined ? undefined : validateStages(rec['stages']);

  let launched = 0;
  let flagged = false;
  let notFailed = 0;
  if (stages !== undefined) {
    for (const st of stages) {
      launched += st.sub.length;
      for (const f of st.finished) {
        if (f !== undefined) flagged = true;
        if (f !== false) notFailed++;
      }
    }
  }
  const numSubagents = rec['num_subagents'] === undefined ? launched : requireCount(rec['num_subagents'], 'num_subagents');
  const givenAssigned = rec['assigned_subtasks'] === undefined ? undefined : requireCount(rec['assigned_subtasks'], 'assigned_subtasks');
  const givenCompleted =
    rec['completed_subtasks'] === undefined ? undefined : requireCount(rec['completed_subtasks'], 'completed_subtasks');

  const countsFromStages = flagged && (givenAssigned === undefined || givenCompleted === undefined);
  const assigned = givenAssigned ?? (flagged ? launched : numSubagents);
  const completed = givenCompleted ?? (flagged ? notFailed : assigned);
  if (completed > assigned) {
    throw new ParlInputError('completed_subtasks', completed, `at most assigned_subtasks (${assigned})`);
  }
  return new ValidatedEpisode(id, trainingStep, stages, numSubagents, assigned, completed, countsFromStages, readPerf(rec));
}

/**
 * The episodes {@link validateRecord} makes: only those skip validation downstream. A class of its
 * own marks them, rather than a `WeakSet` of them: an entry per record in a `WeakSet` cost the
 * garbage collector more than validating the record did.
 */
class ValidatedEpisode implements NormalizedEpisode {
  constructor(
    readonly id: string | number | undefined,
    readonly trainingStep: number | undefined,
    readonly stages: readonly NormalizedStage[] | undefined,
    readonly numSubagents: number,
    readonly assigned: number,
    readonly completed: number,
    readonly countsFromStages: boolean,
    readonly perf: PerfSource,
  ) {}
}

/** True when `value` came from {@link validateRecord} (and so needs no second validation). */
export function isValidatedEpisode(value: object): value is NormalizedEpisode {
  return value instanceof ValidatedEpisode;
}
