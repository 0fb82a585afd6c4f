/**
 * The grid file of `parl sweep` (spec §9) and its resolution into runs: grid values and random
 * samples over training-config paths, crossed with seeds, each run a resolved
 * {@link TrainingConfig} with its run id.
 *
 * @module
 */
import { ParlInputError, fieldPath, requireObject, requirePositiveInteger, suggestField } from '@parl/core';
import { getPreset } from '../training/presets.js';
import { Rng } from '../internal/engine/rng.js';
import { runIdOf } from '../internal/runs/run-id.js';
import { BASE_TRAINING_CONFIG, resolveTrainingConfig, type TrainingConfig } from '../training/training-config.js';

/** A random range: uniform over [min, max] (log-uniform with `log`, integers with `integer`). */
export interface NumericRange {
  /** Smallest value. */
  readonly min: number;
  /** Largest value. */
  readonly max: number;
  /** Draw uniformly in log space (min > 0). */
  readonly log?: boolean;
  /** Draw integers in [min, max]. */
  readonly integer?: boolean;
}

/** A range of `ranges`: a list of values (one drawn uniformly) or a {@link NumericRange}. */
export type SweepRange = readonly unknown[] | NumericRange;

/** The grid file (spec §9), validated. */
export interface SweepSpec {
  /** Preset every run starts from (default `parl`); a `preset` grid key overrides it per point. */
  readonly preset: string;
  /** Training steps of every run (default: the preset's). */
  readonly steps?: number;
  /** Seeds each point runs with (default `[1]`). */
  readonly seeds: readonly number[];
  /** Fixed settings over the preset for every run, as in `parl train --config`. */
  readonly config?: Record<string, unknown>;
  /** Training-config path → the values it takes; the points are their cross product. */
  readonly grid: Readonly<Record<string, readonly unknown[]>>;
  /** Random points drawn from `ranges` (crossed with the grid's points). */
  readonly samples?: number;
  /** Training-config path → the range a sample draws from. */
  readonly ranges?: Readonly<Record<string, SweepRange>>;
  /** Seed of the random samples (default 1): the same file gives the same samples. */
  readonly samplesSeed?: number;
}

/** One run of a sweep. */
export interface SweepRunPlan {
  /** {@link runIdOf} its config: the name of its folder under `runs/`. */
  readonly runId: string;
  /** Index of its point in {@link ResolvedSweep.points}. */
  readonly point: number;
  /** The swept values of its point, by path. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Its seed. */
  readonly seed: number;
  /** The resolved training config. */
  readonly config: TrainingConfig;
}

/** A grid file resolved into points and runs. */
export interface ResolvedSweep {
  /** The validated grid file. */
  readonly spec: SweepSpec;
  /** The swept paths, grid keys first then range keys, in file order: the parameter columns of `results.csv`. */
  readonly parameters: readonly string[];
  /** Each point's values by path. */
  readonly points: readonly Readonly<Record<string, unknown>>[];
  /** Points × seeds, point by point; a run whose config equals an earlier one's appears once. */
  readonly runs: readonly SweepRunPlan[];
}

const SPEC_KEYS = ['preset', 'steps', 'seeds', 'config', 'grid', 'samples', 'ranges', 'samplesSeed'];

/**
 * The most runs one grid file may plan (grid points × samples × seeds): above it the file is
 * refused before anything is expanded, naming the count. A run trains for seconds to minutes,
 * so a sweep this large is already days of compute; a larger one is almost always a mistake
 * (a list pasted twice, `samples` in the millions).
 */
export const MAX_SWEEP_RUNS = 10_000;

/** Short names of paths: spec §9's `lambda1`, `lambda2` (a null-prototype map: `constructor` is no alias). */
const ALIASES: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  lambda1: 'reward.lambda1',
  lambda2: 'reward.lambda2',
});

/**
 * Every training-config path a grid may sweep: the base config's, and the optional settings it
 * leaves out (`reward.budget`, `reward.onBudget`, `objective.modeEntropy`), which `parl-mixed` sets.
 */
const SWEEPABLE: TrainingConfig = {
  ...BASE_TRAINING_CONFIG,
  reward: { ...BASE_TRAINING_CONFIG.reward, budget: 0, onBudget: 'fail' },
  objective: { ...BASE_TRAINING_CONFIG.objective, modeEntropy: 0 },
};

/**
 * The config path a grid or range key stands for, as segments; `preset` is `['preset']`.
 *
 * @throws {@link @parl/core!ParlInputError} for `seed` (use `seeds`) and for a path that is not a setting, naming the settings that are
 */
export function sweepPath(key: string, field: string): string[] {
  if (key === 'seed') throw new ParlInputError(field, key, 'a training-config path other than seed (list seeds in "seeds")');
  const segments = (Object.hasOwn(ALIASES, key) ? (ALIASES[key] as string) : key).split('.');
  let node: unknown = SWEEPABLE;
  let at = '';
  for (const segment of segments) {
    const obj = node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
    if (obj === undefined || !Object.hasOwn(obj, segment)) {
      const names = obj === undefined ? [] : Object.keys(obj).filter((k) => k !== 'seed');
      const near = obj === undefined ? undefined : suggestField(segment, at === '' ? [...names, ...Object.keys(ALIASES)] : names);
      const hint = near === undefined ? '' : `did you mean ${at === '' ? near : `${at}.${near}`}?; `;
      const known = obj === undefined ? `${at} is a value, not a group of settings` : `${at === '' ? 'settings' : at} has ${names.join(', ')}`;
      throw new ParlInputError(field, key, `a training-config path such as lambda1, env.family, env.budget (${hint}${known})`);
    }
    node = obj[segment];
    at = at === '' ? segment : `${at}.${segment}`;
  }
  return segments;
}

/** Set a path of {@link sweepPath} segments in a fresh settings object (own properties only, never a prototype's). */
function setPath(target: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    if (!Object.hasOwn(node, segment)) Object.defineProperty(node, segment, { value: {}, enumerable: true, writable: true, configurable: true });
    node = node[segment] as Record<string, unknown>;
  }
  Object.defineProperty(node, segments[segments.length - 1] as string, { value, enumerable: true, writable: true, configurable: true });
}

function readSeeds(value: unknown): number[] {
  if (value === undefined) return [1];
  if (!Array.isArray(value) || value.length === 0) throw new ParlInputError('seeds', value, 'a non-empty array of seeds (integers between 0 and 4294967295)');
  const seen = new Set<number>();
  return value.map((s, i) => {
    if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s > 0xffffffff) throw new ParlInputError(fieldPath('seeds', i), s, 'an integer between 0 and 4294967295');
    if (seen.has(s)) throw new ParlInputError(fieldPath('seeds', i), s, 'a seed not listed before');
    seen.add(s);
    return s;
  });
}

function readRange(value: unknown, field: string): SweepRange {
  if (Array.isArray(value)) {
    if (value.length === 0) throw new ParlInputError(field, value, 'a non-empty list of values, or {"min", "max"}');
    return value;
  }
  const r = requireObject(value, field);
  for (const key of Object.keys(r)) {
    if (!['min', 'max', 'log', 'integer'].includes(key)) throw new ParlInputError(fieldPath(field, key), r[key], 'a known range setting (min, max, log, integer)');
  }
  const { min, max, log, integer } = r;
  if (typeof min !== 'number' || !Number.isFinite(min)) throw new ParlInputError(fieldPath(field, 'min'), min, 'a finite number');
  if (typeof max !== 'number' || !Number.isFinite(max)) throw new ParlInputError(fieldPath(field, 'max'), max, 'a finite number');
  if (max < min) throw new ParlInputError(fieldPath(field, 'min'), min, `a number ≤ max (${max}): min is above max`);
  for (const [k, v] of [['log', log], ['integer', integer]] as const) {
    if (v !== undefined && typeof v !== 'boolean') throw new ParlInputError(fieldPath(field, k), v, 'true or false');
  }
  if (log === true && min <= 0) throw new ParlInputError(fieldPath(field, 'min'), min, 'a number > 0 for a log range');
  if (integer === true && (!Number.isInteger(min) || !Number.isInteger(max))) throw new ParlInputError(field, value, 'integer bounds for an integer range');
  return { min, max, ...(log === true ? { log: true } : {}), ...(integer === true ? { integer: true } : {}) };
}

/**
 * Validate a parsed grid file (spec §9). Paths are checked here; values when the runs are
 * resolved ({@link resolveSweep}).
 *
 * @throws {@link @parl/core!ParlInputError} naming the key or path at fault
 */
export function validateSweepSpec(input: unknown): SweepSpec {
  const obj = requireObject(input, 'sweep');
  for (const key of Object.keys(obj)) {
    if (!SPEC_KEYS.includes(key)) throw new ParlInputError(key, obj[key], `a key of a grid file (one of ${SPEC_KEYS.join(', ')})`);
  }
  const preset = obj['preset'] ?? 'parl';
  if (typeof preset !== 'string') throw new ParlInputError('preset', preset, 'a preset name');
  const grid: Record<string, readonly unknown[]> = Object.create(null) as Record<string, readonly unknown[]>;
  if (obj['grid'] !== undefined) {
    const g = requireObject(obj['grid'], 'grid');
    for (const [key, values] of Object.entries(g)) {
      const field = `grid[${JSON.stringify(key)}]`;
      sweepPath(key, field);
      if (!Array.isArray(values) || values.length === 0) throw new ParlInputError(field, values, 'a non-empty list of values');
      grid[key] = values;
    }
  }
  let ranges: Record<string, SweepRange> | undefined;
  if (obj['ranges'] !== undefined) {
    const r = requireObject(obj['ranges'], 'ranges');
    ranges = Object.create(null) as Record<string, SweepRange>;
    for (const [key, range] of Object.entries(r)) {
      const field = `ranges[${JSON.stringify(key)}]`;
      sweepPath(key, field);
      if (Object.hasOwn(grid, key)) throw new ParlInputError(field, key, 'a path that is not also a grid key');
      ranges[key] = readRange(range, field);
    }
  }
  const samples = obj['samples'] === undefined ? undefined : requirePositiveInteger(obj['samples'], 'samples');
  if ((samples === undefined) !== (ranges === undefined)) {
    throw new ParlInputError(samples === undefined ? 'samples' : 'ranges', undefined, samples === undefined ? 'a number of samples to draw from "ranges"' : 'the "ranges" to draw the samples from');
  }
  const planned = plannedRunCount(grid, samples, obj['seeds']);
  if (planned > MAX_SWEEP_RUNS) {
    const parts = [...Object.entries(grid).map(([k, v]) => `${v.length} values of ${k}`), ...(samples === undefined ? [] : [`${samples} samples`]), `${Array.isArray(obj['seeds']) ? obj['seeds'].length : 1} seeds`];
    throw new ParlInputError('grid', planned, `at most ${MAX_SWEEP_RUNS} runs per grid file (grid points × samples × seeds, here ${parts.join(' × ')}): split the sweep or narrow its lists`);
  }
  const samplesSeed = obj['samplesSeed'];
  if (samplesSeed !== undefined && (typeof samplesSeed !== 'number' || !Number.isInteger(samplesSeed) || samplesSeed < 0 || samplesSeed > 0xffffffff)) {
    throw new ParlInputError('samplesSeed', samplesSeed, 'an integer between 0 and 4294967295');
  }
  return {
    preset,
    ...(obj['steps'] === undefined ? {} : { steps: requirePositiveInteger(obj['steps'], 'steps') }),
    seeds: readSeeds(obj['seeds']),
    ...(obj['config'] === undefined ? {} : { config: requireObject(obj['config'], 'config') }),
    grid,
    ...(samples === undefined ? {} : { samples }),
    ...(ranges === undefined ? {} : { ranges }),
    ...(samplesSeed === undefined ? {} : { samplesSeed }),
  };
}

/** Grid points × samples × seeds, without expanding anything (may be Infinity-large; only compared). */
function plannedRunCount(grid: Readonly<Record<string, readonly unknown[]>>, samples: number | undefined, seeds: unknown): number {
  let count = (samples ?? 1) * (Array.isArray(seeds) ? Math.max(seeds.length, 1) : 1);
  for (const values of Object.values(grid)) count *= values.length;
  return count;
}

/** Four significant digits: drawn values stay readable in results.csv and stable in run ids. */
function round4(x: number): number {
  return Number(x.toPrecision(4));
}

function draw(rng: Rng, range: SweepRange): unknown {
  if (Array.isArray(range)) return range[rng.int(0, range.length - 1)];
  const r = range as NumericRange;
  if (r.integer === true) return rng.int(r.min, r.max);
  if (r.log === true) return round4(Math.exp(Math.log(r.min) + rng.uniform() * (Math.log(r.max) - Math.log(r.min))));
  return round4(r.min + rng.uniform() * (r.max - r.min));
}

/** The points of a spec: the grid's cross product, each crossed with the random samples. */
function pointsOf(spec: SweepSpec): Record<string, unknown>[] {
  let points: Record<string, unknown>[] = [{}];
  for (const [key, values] of Object.entries(spec.grid)) {
    points = points.flatMap((p) => values.map((v) => ({ ...p, [key]: v })));
  }
  if (spec.samples !== undefined && spec.ranges !== undefined) {
    const rng = new Rng(spec.samplesSeed ?? 1);
    const samples: Record<string, unknown>[] = [];
    for (let i = 0; i < spec.samples; i++) {
      const s: Record<string, unknown> = {};
      for (const [key, range] of Object.entries(spec.ranges)) s[key] = draw(rng, range);
      samples.push(s);
    }
    points = points.flatMap((p) => samples.map((s) => ({ ...p, ...s })));
  }
  return points;
}

/** Where a parameter's value came from, for errors: `grid["env.budget"][1]` or `ranges["env.budget"]`. */
function valueField(spec: SweepSpec, key: string, value: unknown): string {
  const values = spec.grid[key];
  if (values !== undefined) return `grid[${JSON.stringify(key)}][${values.indexOf(value)}]`;
  return `ranges[${JSON.stringify(key)}]`;
}

/** The config of one point and seed. */
function configOf(spec: SweepSpec, params: Readonly<Record<string, unknown>>, seed: number): TrainingConfig {
  let base: TrainingConfig;
  const preset = params['preset'] ?? spec.preset;
  try {
    base = getPreset(preset as string);
  } catch (err) {
    if (err instanceof ParlInputError) throw new ParlInputError(params['preset'] === undefined ? 'preset' : valueField(spec, 'preset', preset), preset, err.expected);
    throw err;
  }
  if (spec.config !== undefined) {
    try {
      base = resolveTrainingConfig(spec.config, base);
    } catch (err) {
      if (err instanceof ParlInputError) throw new ParlInputError(`config.${err.field}`, err.value, err.expected);
      throw err;
    }
  }
  for (const [key, value] of Object.entries(params)) {
    if (key === 'preset') continue;
    const partial: Record<string, unknown> = {};
    setPath(partial, sweepPath(key, key), value);
    try {
      base = resolveTrainingConfig(partial, base);
    } catch (err) {
      if (err instanceof ParlInputError) throw new ParlInputError(valueField(spec, key, value), value, `${err.expected} (for ${err.field})`);
      throw err;
    }
  }
  return resolveTrainingConfig({ ...(spec.steps === undefined ? {} : { steps: spec.steps }), seed }, base);
}

/**
 * Check every grid value, and every list value and bound of a range, on its own over the preset
 * and `config`, before anything is crossed: a bad value in the last key is named at once rather
 * than after the cross product is built. (A value that is only wrong next to another key's value
 * is still found when the runs are resolved, within {@link MAX_SWEEP_RUNS}.)
 */
function checkEveryValue(spec: SweepSpec): void {
  const seed = spec.seeds[0] ?? 1;
  for (const [key, values] of Object.entries(spec.grid)) {
    for (const value of values) configOf(spec, { [key]: value }, seed);
  }
  for (const [key, range] of Object.entries(spec.ranges ?? {})) {
    const values = Array.isArray(range) ? range : [(range as NumericRange).min, (range as NumericRange).max];
    for (const value of values) configOf(spec, { [key]: value }, seed);
  }
}

/**
 * Resolve a grid file into its runs: every point (grid cross product, × random samples) × every
 * seed, each with its resolved config and run id. Every value is checked, each on its own before
 * the cross product is built, and a file planning more than {@link MAX_SWEEP_RUNS} runs is refused.
 *
 * @param input - the parsed grid file (untrusted)
 * @throws {@link @parl/core!ParlInputError} naming the path or value at fault, e.g. `grid["env.budget"][1]`
 *
 * @example
 * ```ts
 * const sweep = resolveSweep({ steps: 300, seeds: [1, 2], grid: { lambda1: ['linear:0.3:0:200', 'constant:0'] } });
 * sweep.runs.length; // 4
 * ```
 */
export function resolveSweep(input: unknown): ResolvedSweep {
  const spec = validateSweepSpec(input);
  checkEveryValue(spec);
  const points = pointsOf(spec);
  const runs: SweepRunPlan[] = [];
  const seen = new Set<string>();
  points.forEach((params, point) => {
    for (const seed of spec.seeds) {
      const config = configOf(spec, params, seed);
      const runId = runIdOf(config);
      if (seen.has(runId)) continue;
      seen.add(runId);
      runs.push({ runId, point, params, seed, config });
    }
  });
  return { spec, parameters: [...Object.keys(spec.grid), ...Object.keys(spec.ranges ?? {})], points, runs };
}
