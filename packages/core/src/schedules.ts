/**
 * λ schedules (spec §4): six kinds, their JSON and short forms, validation and evaluation.
 *
 * Every schedule maps a training step s ≥ 0 to a value and holds its last value after its last
 * step.
 *
 * @module
 */
import { parseDecimal } from './decimal.js';
import { ParlInputError, fieldPath, requireArray, requireFinite, requireNonNegative, requireObject, requirePositive } from './errors.js';

/** `{"kind":"constant","value":0.1}` */
export interface ConstantScheduleSpec {
  /** The kind, `constant`. */
  readonly kind: 'constant';
  /** The value at every step (finite). */
  readonly value: number;
}

/** `{"kind":"linear","from":0.1,"to":0,"steps":10000}`: straight line from `from` to `to`. */
export interface LinearScheduleSpec {
  /** The kind, `linear`. */
  readonly kind: 'linear';
  /** The value at step 0 (finite). */
  readonly from: number;
  /** The value from `steps` on (finite). */
  readonly to: number;
  /** The step at which `to` is reached (finite, > 0). */
  readonly steps: number;
}

/** `{"kind":"cosine","from":0.1,"to":0,"steps":10000}`: half a cosine from `from` to `to`. */
export interface CosineScheduleSpec {
  /** The kind, `cosine`. */
  readonly kind: 'cosine';
  /** The value at step 0 (finite). */
  readonly from: number;
  /** The value from `steps` on (finite). */
  readonly to: number;
  /** The step at which `to` is reached (finite, > 0). */
  readonly steps: number;
}

/** `{"kind":"exponential","from":0.1,"to":0.001,"steps":10000}`: geometric; from, to > 0. */
export interface ExponentialScheduleSpec {
  /** The kind, `exponential`. */
  readonly kind: 'exponential';
  /** The value at step 0 (finite, > 0). */
  readonly from: number;
  /** The value from `steps` on (finite, > 0). */
  readonly to: number;
  /** The step at which `to` is reached (finite, > 0). */
  readonly steps: number;
}

/**
 * `{"kind":"step","values":[0.1,0.05,0],"boundaries":[3000,6000]}`: `values[0]` before the
 * first boundary, `values[i]` from boundary i-1 on (a boundary step takes the new value).
 */
export interface StepScheduleSpec {
  /** The kind, `step`. */
  readonly kind: 'step';
  /** The values, one more than the boundaries (finite). */
  readonly values: readonly number[];
  /** The steps at which the value changes (finite, ≥ 0, increasing). */
  readonly boundaries: readonly number[];
}

/**
 * `{"kind":"piecewise","points":[[0,0],[500,0.1],[10000,0]]}`: linear between points, the first
 * value before the first point and the last value after the last.
 */
export interface PiecewiseScheduleSpec {
  /** The kind, `piecewise`. */
  readonly kind: 'piecewise';
  /** At least one `[step, value]` point, steps finite, ≥ 0 and increasing, values finite. */
  readonly points: readonly (readonly [number, number])[];
}

/** Any schedule in its JSON form. */
export type ScheduleSpec =
  | ConstantScheduleSpec
  | LinearScheduleSpec
  | CosineScheduleSpec
  | ExponentialScheduleSpec
  | StepScheduleSpec
  | PiecewiseScheduleSpec;

/** The kinds of schedule, as written in `kind`. */
export const SCHEDULE_KINDS = ['constant', 'linear', 'cosine', 'exponential', 'step', 'piecewise'] as const;

/** A parsed, validated schedule. */
export interface Schedule {
  /** The validated JSON form (a normalised copy of the input). */
  readonly spec: ScheduleSpec;
  /** The value at training step `step` (finite, ≥ 0). */
  at(step: number): number;
  /**
   * The values at many steps at once, written into `out` (allocated when omitted).
   * Steps are validated like {@link Schedule.at}.
   */
  atMany(steps: ArrayLike<number>, out?: Float64Array): Float64Array;
  /** The short form, e.g. `linear:0.1:0:10000`. */
  toString(): string;
}

/** Anything {@link parseSchedule} accepts: a short form, a JSON string, a spec object or a parsed schedule. */
export type ScheduleInput = string | ScheduleSpec | Schedule;

/**
 * Parse and validate a schedule from its short form (`linear:0.1:0:10000`), its JSON form
 * (object or JSON text), or pass a parsed {@link Schedule} through.
 *
 * @param input - the schedule in any accepted form
 * @param field - the field path used in error messages (default `schedule`)
 * @throws {@link ParlInputError} naming the problem: unknown kind, steps ≤ 0, non-finite
 *   values, boundaries not increasing, wrong count of values
 *
 * @example
 * ```ts
 * const s = parseSchedule('linear:0.1:0:10000');
 * s.at(5000); // 0.05
 * parseSchedule({ kind: 'step', values: [0.1, 0.05, 0], boundaries: [3000, 6000] }).at(3000); // 0.05
 * ```
 */
export function parseSchedule(input: ScheduleInput, field = 'schedule'): Schedule {
  if (isSchedule(input)) return input;
  if (typeof input === 'string') {
    const text = input.trim();
    if (text.startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ParlInputError(field, input, 'a schedule in JSON or short form (the JSON does not parse)', undefined, 'PARL_ERR_PARSE');
      }
      return buildSchedule(validateScheduleSpec(parsed, field));
    }
    return buildSchedule(validateScheduleSpec(parseShortForm(text, field), field));
  }
  return buildSchedule(validateScheduleSpec(input, field));
}

/** True when `value` is an already parsed {@link Schedule}. */
export function isSchedule(value: unknown): value is Schedule {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Schedule).at === 'function' &&
    typeof (value as Schedule).atMany === 'function' &&
    typeof (value as Schedule).spec === 'object'
  );
}

/**
 * The short form of a schedule spec, e.g. `step:0.1,0.05,0:3000,6000`.
 * Parsing the result gives back an equal spec.
 */
export function formatSchedule(spec: ScheduleSpec): string {
  const n = formatNumber;
  switch (spec.kind) {
    case 'constant':
      return `constant:${n(spec.value)}`;
    case 'linear':
    case 'cosine':
    case 'exponential':
      return `${spec.kind}:${n(spec.from)}:${n(spec.to)}:${n(spec.steps)}`;
    case 'step':
      return `step:${spec.values.map(n).join(',')}:${spec.boundaries.map(n).join(',')}`;
    case 'piecewise':
      return `piecewise:${spec.points.map(([s, v]) => `${n(s)}=${n(v)}`).join(',')}`;
  }
}

/** A number as the short form writes it: shortest round-trip text, keeping the sign of -0. */
function formatNumber(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

function parseNumberToken(token: string, field: string, whole: string): number {
  const n = parseDecimal(token);
  if (!Number.isFinite(n)) {
    throw new ParlInputError(field, whole, `a schedule whose numbers are finite (could not read ${JSON.stringify(token)})`);
  }
  return n;
}

function parseNumberList(text: string, field: string, whole: string): number[] {
  if (text.trim() === '') return [];
  return text.split(',').map((t) => parseNumberToken(t, field, whole));
}

function parseShortForm(text: string, field: string): ScheduleSpec {
  const parts = text.split(':');
  const kind = parts[0] ?? '';
  const arity = (n: number, shape: string): void => {
    if (parts.length !== n + 1) {
      throw new ParlInputError(field, text, `${shape} (short form of a ${kind} schedule)`);
    }
  };
  switch (kind) {
    case 'constant':
      arity(1, 'constant:VALUE');
      return { kind, value: parseNumberToken(parts[1] ?? '', field, text) };
    case 'linear':
    case 'cosine':
    case 'exponential':
      arity(3, `${kind}:FROM:TO:STEPS`);
      return {
        kind,
        from: parseNumberToken(parts[1] ?? '', field, text),
        to: parseNumberToken(parts[2] ?? '', field, text),
        steps: parseNumberToken(parts[3] ?? '', field, text),
      };
    case 'step':
      arity(2, 'step:V0,V1,...:B1,B2,...');
      return {
        kind,
        values: parseNumberList(parts[1] ?? '', field, text),
        boundaries: parseNumberList(parts[2] ?? '', field, text),
      };
    case 'piecewise': {
      arity(1, 'piecewise:STEP=VALUE,STEP=VALUE,...');
      const points = (parts[1] ?? '').split(',').map((pair): [number, number] => {
        const [s, v, extra] = pair.split('=');
        if (s === undefined || v === undefined || extra !== undefined) {
          throw new ParlInputError(field, text, 'piecewise:STEP=VALUE,STEP=VALUE,... (each point as STEP=VALUE)');
        }
        return [parseNumberToken(s, field, text), parseNumberToken(v, field, text)];
      });
      return { kind, points };
    }
    default:
      throw new ParlInputError(
        field,
        text,
        `a schedule of kind ${SCHEDULE_KINDS.join(', ')} (short form like linear:0.1:0:10000 or JSON)`,
      );
  }
}

/**
 * Validate a schedule given as an untrusted JSON value and return a normalised copy.
 *
 * @throws {@link ParlInputError} naming the offending field, e.g. `lambda1.steps`
 */
export function validateScheduleSpec(value: unknown, field = 'schedule'): ScheduleSpec {
  const obj = requireObject(value, field);
  const kind = obj['kind'];
  const f = (key: string): string => fieldPath(field, key);
  switch (kind) {
    case 'constant':
      return { kind, value: requireFinite(obj['value'], f('value')) };
    case 'linear':
    case 'cosine': {
      const from = requireFinite(obj['from'], f('from'));
      const to = requireFinite(obj['to'], f('to'));
      requireFiniteSpan(from, to, f('to'), 'from');
      return { kind, from, to, steps: requirePositive(obj['steps'], f('steps')) };
    }
    case 'exponential':
      return {
        kind,
        from: requirePositive(obj['from'], f('from')),
        to: requirePositive(obj['to'], f('to')),
        steps: requirePositive(obj['steps'], f('steps')),
      };
    case 'step': {
      const values = requireArray(obj['values'], f('values')).map((v, i) => requireFinite(v, fieldPath(f('values'), i)));
      const boundaries = requireArray(obj['boundaries'], f('boundaries')).map((b, i) =>
        requireNonNegative(b, fieldPath(f('boundaries'), i)),
      );
      for (let i = 1; i < boundaries.length; i++) {
        if ((boundaries[i] as number) <= (boundaries[i - 1] as number)) {
          throw new ParlInputError(fieldPath(f('boundaries'), i), boundaries[i], `greater than boundaries[${i - 1}] = ${boundaries[i - 1]} (boundaries must increase)`);
        }
      }
      if (values.length !== boundaries.length + 1) {
        throw new ParlInputError(
          f('values'),
          obj['values'],
          `${boundaries.length + 1} ${boundaries.length === 0 ? 'value' : 'values'} (one more than the ${boundaries.length} boundaries)`,
        );
      }
      return { kind, values, boundaries };
    }
    case 'piecewise': {
      const raw = requireArray(obj['points'], f('points'));
      if (raw.length === 0) throw new ParlInputError(f('points'), raw, 'at least one [step, value] point');
      const points = raw.map((p, i): [number, number] => {
        const pf = fieldPath(f('points'), i);
        const pair = requireArray(p, pf);
        if (pair.length !== 2) throw new ParlInputError(pf, p, 'a [step, value] pair');
        return [requireNonNegative(pair[0], fieldPath(pf, 0)), requireFinite(pair[1], fieldPath(pf, 1))];
      });
      for (let i = 1; i < points.length; i++) {
        const prev = (points[i - 1] as [number, number])[0];
        const cur = (points[i] as [number, number])[0];
        requireFiniteSpan((points[i - 1] as [number, number])[1], (points[i] as [number, number])[1], fieldPath(fieldPath(f('points'), i), 1), `points[${i - 1}]'s value`);
        if (cur <= prev) {
          throw new ParlInputError(fieldPath(fieldPath(f('points'), i), 0), cur, `greater than the previous point's step ${prev} (steps must increase)`);
        }
      }
      return { kind, points };
    }
    default:
      throw new ParlInputError(f('kind'), kind, `one of ${SCHEDULE_KINDS.map((k) => `"${k}"`).join(', ')}`);
  }
}

/**
 * Values between which a schedule interpolates must differ by a finite amount (|b − a| ≤ the
 * largest double), or the interpolation overflows to ±Infinity or NaN.
 */
function requireFiniteSpan(a: number, b: number, field: string, other: string): void {
  if (!Number.isFinite(b - a)) {
    throw new ParlInputError(field, b, `within a finite distance of ${other} (${a}); the difference overflows a double`);
  }
}

function checkStep(step: number): void {
  if (typeof step !== 'number' || !(step >= 0) || step === Number.POSITIVE_INFINITY) {
    throw new ParlInputError('step', step, 'a finite training step ≥ 0');
  }
}

function evaluator(spec: ScheduleSpec): (s: number) => number {
  switch (spec.kind) {
    case 'constant': {
      const v = spec.value;
      return () => v;
    }
    case 'linear': {
      const { from, to, steps } = spec;
      return (s) => (s >= steps ? to : from + (to - from) * (s / steps));
    }
    case 'cosine': {
      const { from, to, steps } = spec;
      return (s) => (s >= steps ? to : to + (from - to) * 0.5 * (1 + Math.cos((Math.PI * s) / steps)));
    }
    case 'exponential': {
      const { from, to, steps } = spec;
      const logRatio = Math.log(to / from);
      return (s) => (s >= steps ? to : from * Math.exp(logRatio * (s / steps)));
    }
    case 'step': {
      const values = spec.values;
      const boundaries = spec.boundaries;
      return (s) => {
        let i = 0;
        while (i < boundaries.length && s >= (boundaries[i] as number)) i++;
        return values[i] as number;
      };
    }
    case 'piecewise': {
      const xs = spec.points.map((p) => p[0]);
      const ys = spec.points.map((p) => p[1]);
      const last = xs.length - 1;
      return (s) => {
        if (s <= (xs[0] as number)) return ys[0] as number;
        if (s >= (xs[last] as number)) return ys[last] as number;
        let i = 1;
        while ((xs[i] as number) < s) i++;
        const x0 = xs[i - 1] as number;
        const x1 = xs[i] as number;
        const y0 = ys[i - 1] as number;
        const y1 = ys[i] as number;
        return y0 + (y1 - y0) * ((s - x0) / (x1 - x0));
      };
    }
  }
}

/** Schedules made by {@link parseSchedule}: their behaviour is fixed by their spec. */
const builtSchedules = new WeakSet<Schedule>();

/**
 * True when both schedules give the same value at every step: the same object, or two
 * schedules made by {@link parseSchedule} from equal specs.
 */
export function sameSchedule(a: Schedule, b: Schedule): boolean {
  if (a === b) return true;
  return builtSchedules.has(a) && builtSchedules.has(b) && formatSchedule(a.spec) === formatSchedule(b.spec);
}

function buildSchedule(spec: ScheduleSpec): Schedule {
  const f = evaluator(spec);
  const schedule: Schedule = {
    spec,
    at(step: number): number {
      checkStep(step);
      return f(step);
    },
    atMany(steps: ArrayLike<number>, out?: Float64Array): Float64Array {
      const result = out ?? new Float64Array(steps.length);
      if (result.length < steps.length) {
        throw new ParlInputError('out', result.length, `a Float64Array of length ≥ ${steps.length}`);
      }
      for (let i = 0; i < steps.length; i++) {
        const s = steps[i] as number;
        if (typeof s !== 'number' || !(s >= 0) || s === Number.POSITIVE_INFINITY) {
          throw new ParlInputError(`steps[${i}]`, s, 'a finite training step ≥ 0');
        }
        result[i] = f(s);
      }
      return result;
    },
    toString(): string {
      return formatSchedule(spec);
    },
  };
  builtSchedules.add(schedule);
  return schedule;
}
