/**
 * The records of a training run folder (spec §6): one `metrics.jsonl` line per training step
 * and `summary.json`, as types and as validators for files read back from disk.
 *
 * @module
 */
import { ParlInputError, fieldPath, requireArray, requireFinite, requireObject } from './errors.js';

/** The fields of one `metrics.jsonl` line (spec §6), in their fixed order. */
export const STEP_METRIC_FIELDS = [
  'step',
  'lambda1',
  'lambda2',
  'total_reward',
  'r_parallel',
  'r_finish',
  'r_perf',
  'critical_steps',
  'mean_width',
  'finish_rate',
  'success_rate',
] as const;

/**
 * Fields a `metrics.jsonl` line may carry beyond spec §6, kept when present: `total_steps` (the
 * mean spec §2 total steps — the work — per rollout), `subagents` (mean sub-agents launched per
 * rollout), `assign_rate` (share of the step's rollouts that launched at least one sub-agent),
 * `truncated_share` (share cut by the budget or by the orchestrator's limits: its steps or its
 * context) and `repeat_share` (share in which the orchestrator repeated itself at least once).
 */
export const OPTIONAL_STEP_METRIC_FIELDS = ['total_steps', 'subagents', 'assign_rate', 'truncated_share', 'repeat_share'] as const;

/**
 * One `metrics.jsonl` line: the training step, λ1 and λ2 at it, and the means over the step's
 * rollouts of the reward terms, critical steps, group width, finish rate and success rate; and,
 * when the writer records them, the mean work and sub-agents per rollout.
 */
export type StepMetrics = { readonly [K in (typeof STEP_METRIC_FIELDS)[number]]: number } & {
  readonly [K in (typeof OPTIONAL_STEP_METRIC_FIELDS)[number]]?: number;
};

/** `summary.json`'s `final`: the trained policy, acting greedily, on held-out evaluation tasks. */
export interface FinalMetrics {
  /** Mean r_perf. */
  readonly r_perf: number;
  /** Mean critical steps per episode. */
  readonly critical_steps: number;
  /** Mean size of the groups launched. */
  readonly mean_width: number;
  /** Share of sub-agents that finished their subtasks; null when the policy launched none (there is no rate). */
  readonly finish_rate: number | null;
  /** Share of episodes that succeeded. */
  readonly success_rate: number;
  /** Mean spec §2 total steps (work) per episode, when recorded (beyond spec §6). */
  readonly total_steps?: number;
  /** Mean sub-agents launched per episode, when recorded (beyond spec §6). */
  readonly subagents?: number;
  /** Share of episodes that launched at least one sub-agent, when recorded (beyond spec §6). */
  readonly assign_rate?: number;
  /** Share of episodes cut by the budget or by the orchestrator's limits, when recorded (beyond spec §6). */
  readonly truncated_share?: number;
}

/** `summary.json`'s `baseline_serial`: the always-serial scripted policy on the same tasks. */
export interface BaselineMetrics {
  /** Mean r_perf. */
  readonly r_perf: number;
  /** Mean critical steps per episode. */
  readonly critical_steps: number;
  /** Mean spec §2 total steps (work) per episode, when recorded (beyond spec §6). */
  readonly total_steps?: number;
}

/**
 * One entry of `summary.json`'s optional `baselines` (beyond spec §6): a scripted policy measured
 * on the same held-out tasks as `final`.
 */
export interface ScriptedBaselineResult {
  /** The scripted policy's name, e.g. `balanced`. */
  readonly policy: string;
  /** Mean r_perf. */
  readonly r_perf: number;
  /** Mean critical steps per episode. */
  readonly critical_steps: number;
  /** Mean total steps (work) per episode. */
  readonly total_steps: number;
  /** Mean sub-agents launched per episode. */
  readonly subagents: number;
  /** Mean size of the groups launched (0 when it never launches). */
  readonly mean_width: number;
  /** Share of sub-agents that finished; null when it launches none. */
  readonly finish_rate: number | null;
  /** Share of episodes that ended with every subtask done. */
  readonly success_rate: number;
  /** Critical-step budget it needs per r_perf target, in the order of `latency_to_target` (null: never). */
  readonly latency: readonly (number | null)[];
  /** True when its episodes on the held-out tasks are identical to the trained policy's. */
  readonly same_as_trained: boolean;
}

/** One row of `latency_to_target`: the critical-step budget each policy needs to reach `target`. */
export interface LatencyToTarget {
  /** The r_perf target. */
  readonly target: number;
  /** Budget the trained policy needs; null when it never reaches the target. */
  readonly policy: number | null;
  /** Budget the always-serial policy needs; null when it never reaches the target. */
  readonly serial: number | null;
}

/** `summary.json` (spec §6). */
export interface RunSummary {
  /** The preset the run started from. */
  readonly preset: string;
  /** The run's seed. */
  readonly seed: number;
  /** Training steps run. */
  readonly steps: number;
  /** The trained policy on held-out tasks. */
  readonly final: FinalMetrics;
  /** The always-serial policy on the same tasks. */
  readonly baseline_serial: BaselineMetrics;
  /** Critical-step budget needed per r_perf target. */
  readonly latency_to_target: readonly LatencyToTarget[];
  /** Every scripted policy on the same held-out tasks, when recorded (beyond spec §6). */
  readonly baselines?: readonly ScriptedBaselineResult[];
}

function nullableFinite(value: unknown, field: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ParlInputError(field, value, 'a finite number or null');
  return value;
}

/**
 * Check one parsed `metrics.jsonl` line and return it with exactly the spec §6 fields.
 *
 * @throws {@link ParlInputError} naming the field, e.g. `critical_steps must be a finite number, got null`
 */
export function validateStepMetrics(value: unknown): StepMetrics {
  const row = requireObject(value, 'metrics');
  const out: Record<string, number> = {};
  for (const key of STEP_METRIC_FIELDS) out[key] = requireFinite(row[key], key);
  for (const key of OPTIONAL_STEP_METRIC_FIELDS) if (row[key] !== undefined) out[key] = requireFinite(row[key], key);
  return out as StepMetrics;
}

function optionalFinite(obj: Record<string, unknown>, key: string, field: string): Record<string, number> {
  return obj[key] === undefined ? {} : { [key]: requireFinite(obj[key], fieldPath(field, key)) };
}

function validateBaselines(value: unknown, targets: number): ScriptedBaselineResult[] {
  return requireArray(value, 'baselines').map((row, i) => {
    const f = fieldPath('baselines', i);
    const r = requireObject(row, f);
    const policy = r['policy'];
    if (typeof policy !== 'string' || policy === '') throw new ParlInputError(fieldPath(f, 'policy'), policy, 'a policy name');
    const num = (k: string): number => requireFinite(r[k], fieldPath(f, k));
    const latency = requireArray(r['latency'], fieldPath(f, 'latency')).map((v, j) => nullableFinite(v, fieldPath(fieldPath(f, 'latency'), j)));
    if (latency.length !== targets) throw new ParlInputError(fieldPath(f, 'latency'), latency, `${targets} budgets, one per latency_to_target row`);
    const same = r['same_as_trained'];
    if (typeof same !== 'boolean') throw new ParlInputError(fieldPath(f, 'same_as_trained'), same, 'true or false');
    return {
      policy,
      r_perf: num('r_perf'),
      critical_steps: num('critical_steps'),
      total_steps: num('total_steps'),
      subagents: num('subagents'),
      mean_width: num('mean_width'),
      finish_rate: nullableFinite(r['finish_rate'], fieldPath(f, 'finish_rate')),
      success_rate: num('success_rate'),
      latency,
      same_as_trained: same,
    };
  });
}

/**
 * Check a parsed `summary.json` and return it with the spec §6 fields, plus the optional fields
 * beyond the spec (`final.total_steps`, `final.subagents`, `final.assign_rate`,
 * `final.truncated_share`, `baseline_serial.total_steps`,
 * `baselines`) when present.
 *
 * @throws {@link ParlInputError} naming the field path, e.g. `latency_to_target[2].policy`
 */
export function validateRunSummary(value: unknown): RunSummary {
  const s = requireObject(value, 'summary');
  const preset = s['preset'];
  if (typeof preset !== 'string') throw new ParlInputError('preset', preset, 'a string');
  const final = requireObject(s['final'], 'final');
  const base = requireObject(s['baseline_serial'], 'baseline_serial');
  const finalField = (k: keyof FinalMetrics): number => requireFinite(final[k], fieldPath('final', k));
  const latency = requireArray(s['latency_to_target'], 'latency_to_target').map((row, i) => {
    const f = fieldPath('latency_to_target', i);
    const r = requireObject(row, f);
    return {
      target: requireFinite(r['target'], fieldPath(f, 'target')),
      policy: nullableFinite(r['policy'], fieldPath(f, 'policy')),
      serial: nullableFinite(r['serial'], fieldPath(f, 'serial')),
    };
  });
  return {
    preset,
    seed: requireFinite(s['seed'], 'seed'),
    steps: requireFinite(s['steps'], 'steps'),
    final: {
      r_perf: finalField('r_perf'),
      critical_steps: finalField('critical_steps'),
      mean_width: finalField('mean_width'),
      finish_rate: nullableFinite(final['finish_rate'], 'final.finish_rate'),
      success_rate: finalField('success_rate'),
      ...optionalFinite(final, 'total_steps', 'final'),
      ...optionalFinite(final, 'subagents', 'final'),
      ...optionalFinite(final, 'assign_rate', 'final'),
      ...optionalFinite(final, 'truncated_share', 'final'),
    },
    baseline_serial: {
      r_perf: requireFinite(base['r_perf'], 'baseline_serial.r_perf'),
      critical_steps: requireFinite(base['critical_steps'], 'baseline_serial.critical_steps'),
      ...optionalFinite(base, 'total_steps', 'baseline_serial'),
    },
    latency_to_target: latency,
    ...(s['baselines'] === undefined ? {} : { baselines: validateBaselines(s['baselines'], latency.length) }),
  };
}
