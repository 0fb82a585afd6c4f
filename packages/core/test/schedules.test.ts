import { describe, expect, it } from 'vitest';
import { ParlInputError, formatSchedule, isSchedule, parseSchedule, validateScheduleSpec, type ScheduleSpec } from '../src/index.js';
import { messageOf } from './support.js';

/** Run `fn`, expect a ParlInputError, and return its message. */

describe('schedule values at start, middle, end and after the end', () => {
  it('constant holds its value everywhere', () => {
    const s = parseSchedule('constant:0.1');
    expect([s.at(0), s.at(5000), s.at(1e9)]).toEqual([0.1, 0.1, 0.1]);
  });

  it('linear 0.1 → 0 over 10000', () => {
    const s = parseSchedule('linear:0.1:0:10000');
    expect(s.at(0)).toBe(0.1);
    // 0.1 + (0 − 0.1)·(5000/10000) = 0.05
    expect(s.at(5000)).toBe(0.05);
    // 0.1 − 0.1·0.25 = 0.075
    expect(s.at(2500)).toBeCloseTo(0.075, 15);
    expect(s.at(10000)).toBe(0);
    expect(s.at(25000)).toBe(0);
  });

  it('linear can rise as well as fall', () => {
    const s = parseSchedule('linear:0:1:4');
    // 0 + (1 − 0)·(1/4) = 0.25
    expect(s.at(1)).toBe(0.25);
    expect(s.at(4)).toBe(1);
    expect(s.at(100)).toBe(1);
  });

  it('cosine 0.1 → 0 over 10000 is half a cosine', () => {
    const s = parseSchedule('cosine:0.1:0:10000');
    expect(s.at(0)).toBe(0.1);
    // 0 + 0.1·0.5·(1 + cos(π/2)) = 0.05
    expect(s.at(5000)).toBeCloseTo(0.05, 15);
    // 0.1·0.5·(1 + cos(π/4)) = 0.05·(1 + 0.7071067811865476) = 0.08535533905932738
    expect(s.at(2500)).toBeCloseTo(0.08535533905932738, 15);
    expect(s.at(10000)).toBe(0);
    expect(s.at(20000)).toBe(0);
  });

  it('exponential 0.1 → 0.001 over 10000 is geometric', () => {
    const s = parseSchedule('exponential:0.1:0.001:10000');
    expect(s.at(0)).toBe(0.1);
    // 0.1·(0.001/0.1)^(1/2) = 0.1·0.1 = 0.01
    expect(s.at(5000)).toBeCloseTo(0.01, 15);
    // 0.1·(0.01)^(1/4) = 0.1·0.31622776601683794 = 0.031622776601683794
    expect(s.at(2500)).toBeCloseTo(0.031622776601683794, 15);
    expect(s.at(10000)).toBe(0.001);
    expect(s.at(50000)).toBe(0.001);
  });

  it('step: values[0] before the first boundary, a boundary takes the new value', () => {
    const s = parseSchedule('step:0.1,0.05,0:3000,6000');
    expect(s.at(0)).toBe(0.1);
    expect(s.at(2999)).toBe(0.1);
    expect(s.at(3000)).toBe(0.05);
    expect(s.at(5999.5)).toBe(0.05);
    expect(s.at(6000)).toBe(0);
    expect(s.at(1e7)).toBe(0);
  });

  it('step with no boundaries is a constant', () => {
    const s = parseSchedule({ kind: 'step', values: [0.3], boundaries: [] });
    expect([s.at(0), s.at(1e6)]).toEqual([0.3, 0.3]);
  });

  it('piecewise: a warm-up from 0 up to 0.1 at 500, then down to 0 at 10000', () => {
    const s = parseSchedule('piecewise:0=0,500=0.1,10000=0');
    expect(s.at(0)).toBe(0);
    // 0 + 0.1·(250/500) = 0.05
    expect(s.at(250)).toBe(0.05);
    expect(s.at(500)).toBe(0.1);
    // 0.1 + (0 − 0.1)·((5250 − 500)/9500) = 0.1 − 0.1·0.5 = 0.05
    expect(s.at(5250)).toBeCloseTo(0.05, 15);
    expect(s.at(10000)).toBe(0);
    expect(s.at(30000)).toBe(0);
  });

  it('piecewise holds its first value before the first point', () => {
    const s = parseSchedule('piecewise:100=0.2,200=0.4');
    expect(s.at(0)).toBe(0.2);
    expect(s.at(150)).toBeCloseTo(0.3, 15);
    expect(s.at(999)).toBe(0.4);
  });

  it('atMany gives the values of at, into a given buffer', () => {
    const s = parseSchedule('linear:0.1:0:10000');
    const out = new Float64Array(4);
    const got = s.atMany([0, 5000, 10000, 20000], out);
    expect(got).toBe(out);
    expect(Array.from(got)).toEqual([0.1, 0.05, 0, 0]);
  });
});

describe('forms of a schedule', () => {
  const pairs: [string, ScheduleSpec][] = [
    ['constant:0.1', { kind: 'constant', value: 0.1 }],
    ['linear:0.1:0:10000', { kind: 'linear', from: 0.1, to: 0, steps: 10000 }],
    ['cosine:0.1:0:10000', { kind: 'cosine', from: 0.1, to: 0, steps: 10000 }],
    ['exponential:0.1:0.001:10000', { kind: 'exponential', from: 0.1, to: 0.001, steps: 10000 }],
    ['step:0.1,0.05,0:3000,6000', { kind: 'step', values: [0.1, 0.05, 0], boundaries: [3000, 6000] }],
    [
      'piecewise:0=0,500=0.1,10000=0',
      {
        kind: 'piecewise',
        points: [
          [0, 0],
          [500, 0.1],
          [10000, 0],
        ],
      },
    ],
  ];

  it.each(pairs)('short form %s parses to the same spec as its JSON form', (short, json) => {
    expect(parseSchedule(short).spec).toEqual(json);
    expect(parseSchedule(json).spec).toEqual(json);
    expect(parseSchedule(JSON.stringify(json)).spec).toEqual(json);
  });

  it.each(pairs)('formatSchedule writes %s back', (short, json) => {
    expect(formatSchedule(json)).toBe(short);
    expect(String(parseSchedule(json))).toBe(short);
    expect(parseSchedule(formatSchedule(json)).spec).toEqual(json);
  });

  it('formatSchedule keeps -0 and exponents', () => {
    const spec: ScheduleSpec = { kind: 'linear', from: 1e-7, to: -0, steps: 1e21 };
    const back = parseSchedule(formatSchedule(spec)).spec;
    expect(back).toEqual(spec);
    expect(Object.is((back as { to: number }).to, -0)).toBe(true);
  });

  it('surrounding spaces are ignored', () => {
    expect(parseSchedule('  linear:0.1:0:100 ').spec).toEqual({ kind: 'linear', from: 0.1, to: 0, steps: 100 });
    expect(parseSchedule(' {"kind":"constant","value":2} ').at(3)).toBe(2);
  });

  it('a parsed schedule passes through unchanged', () => {
    const s = parseSchedule('constant:1');
    expect(parseSchedule(s)).toBe(s);
    expect(isSchedule(s)).toBe(true);
    expect(isSchedule({ kind: 'constant', value: 1 })).toBe(false);
    expect(isSchedule(null)).toBe(false);
  });

  it('validateScheduleSpec returns a copy, not the input', () => {
    const input = { kind: 'step', values: [1, 2], boundaries: [5] };
    const spec = validateScheduleSpec(input);
    expect(spec).toEqual(input);
    expect(spec).not.toBe(input);
  });
});

describe('bad schedules name the problem', () => {
  it('unknown kind, short form and JSON', () => {
    expect(messageOf(() => parseSchedule('quadratic:1:2:3'))).toBe(
      'schedule must be a schedule of kind constant, linear, cosine, exponential, step, piecewise (short form like linear:0.1:0:10000 or JSON), got "quadratic:1:2:3"',
    );
    expect(messageOf(() => parseSchedule({ kind: 'quadratic' } as unknown as ScheduleSpec, 'lambda1'))).toBe(
      'lambda1.kind must be one of "constant", "linear", "cosine", "exponential", "step", "piecewise", got "quadratic"',
    );
    expect(messageOf(() => parseSchedule(''))).toMatch(/^schedule must be a schedule of kind .*, got ""$/);
  });

  it('steps ≤ 0', () => {
    expect(messageOf(() => parseSchedule('linear:0.1:0:0'))).toBe('schedule.steps must be a finite number > 0, got 0');
    expect(messageOf(() => parseSchedule('cosine:0.1:0:-5', 'lambda2'))).toBe('lambda2.steps must be a finite number > 0, got -5');
    expect(messageOf(() => parseSchedule({ kind: 'exponential', from: 0.1, to: 0.01, steps: 0 }))).toBe(
      'schedule.steps must be a finite number > 0, got 0',
    );
  });

  it('exponential needs from and to > 0', () => {
    expect(messageOf(() => parseSchedule('exponential:0.1:0:100'))).toBe('schedule.to must be a finite number > 0, got 0');
    expect(messageOf(() => parseSchedule('exponential:-1:0.1:100'))).toBe('schedule.from must be a finite number > 0, got -1');
  });

  it('non-finite values', () => {
    expect(messageOf(() => parseSchedule('constant:Infinity'))).toBe(
      'schedule must be a schedule whose numbers are finite (could not read "Infinity"), got "constant:Infinity"',
    );
    expect(messageOf(() => parseSchedule('linear:abc:0:10'))).toBe(
      'schedule must be a schedule whose numbers are finite (could not read "abc"), got "linear:abc:0:10"',
    );
    expect(messageOf(() => parseSchedule('linear::0:10'))).toContain('could not read ""');
    expect(messageOf(() => parseSchedule({ kind: 'constant', value: Number.NaN }))).toBe('schedule.value must be a finite number, got NaN');
    expect(messageOf(() => parseSchedule({ kind: 'linear', from: 0.1, to: Number.POSITIVE_INFINITY, steps: 10 }))).toBe(
      'schedule.to must be a finite number, got Infinity',
    );
    expect(messageOf(() => parseSchedule({ kind: 'constant', value: '0.1' } as unknown as ScheduleSpec))).toBe(
      'schedule.value must be a finite number, got "0.1"',
    );
    expect(messageOf(() => parseSchedule({ kind: 'step', values: [0.1, null], boundaries: [5] } as unknown as ScheduleSpec))).toBe(
      'schedule.values[1] must be a finite number, got null',
    );
  });

  it('boundaries not increasing', () => {
    expect(messageOf(() => parseSchedule('step:0.1,0.05,0:6000,3000'))).toBe(
      'schedule.boundaries[1] must be greater than boundaries[0] = 6000 (boundaries must increase), got 3000',
    );
    expect(messageOf(() => parseSchedule('step:0.1,0.05,0:3000,3000'))).toContain('schedule.boundaries[1] must be greater than');
    expect(messageOf(() => parseSchedule('step:1,2:-1'))).toBe('schedule.boundaries[0] must be a finite number ≥ 0, got -1');
    expect(messageOf(() => parseSchedule('piecewise:0=0,500=0.1,400=0'))).toBe(
      "schedule.points[2][0] must be greater than the previous point's step 500 (steps must increase), got 400",
    );
  });

  it('wrong count of values', () => {
    expect(messageOf(() => parseSchedule('step:0.1,0:3000,6000'))).toBe(
      'schedule.values must be 3 values (one more than the 2 boundaries), got [0.1,0]',
    );
    expect(messageOf(() => parseSchedule({ kind: 'step', values: [], boundaries: [] }))).toBe(
      'schedule.values must be 1 value (one more than the 0 boundaries), got []',
    );
    expect(messageOf(() => parseSchedule('linear:0.1:0'))).toBe('schedule must be linear:FROM:TO:STEPS (short form of a linear schedule), got "linear:0.1:0"');
    expect(messageOf(() => parseSchedule('constant:1:2'))).toBe('schedule must be constant:VALUE (short form of a constant schedule), got "constant:1:2"');
    expect(messageOf(() => parseSchedule('piecewise:0=1=2'))).toBe(
      'schedule must be piecewise:STEP=VALUE,STEP=VALUE,... (each point as STEP=VALUE), got "piecewise:0=1=2"',
    );
    expect(messageOf(() => parseSchedule({ kind: 'piecewise', points: [] }))).toBe('schedule.points must be at least one [step, value] point, got []');
    expect(messageOf(() => parseSchedule({ kind: 'piecewise', points: [[1, 2, 3]] } as unknown as ScheduleSpec))).toBe(
      'schedule.points[0] must be a [step, value] pair, got [1,2,3]',
    );
  });

  it('JSON that does not parse, and specs that are not objects', () => {
    expect(messageOf(() => parseSchedule('{"kind":"constant",'))).toBe(
      'schedule must be a schedule in JSON or short form (the JSON does not parse), got "{\\"kind\\":\\"constant\\","',
    );
    expect(messageOf(() => validateScheduleSpec([1, 2], 'lambda1'))).toBe('lambda1 must be an object, got [1,2]');
    expect(messageOf(() => validateScheduleSpec({ kind: 'step', values: 1, boundaries: [] }))).toBe('schedule.values must be an array, got 1');
  });

  it('a step that is negative, NaN, Infinity or not a number', () => {
    const s = parseSchedule('linear:0.1:0:10000');
    expect(messageOf(() => s.at(-1))).toBe('step must be a finite training step ≥ 0, got -1');
    expect(messageOf(() => s.at(Number.NaN))).toBe('step must be a finite training step ≥ 0, got NaN');
    expect(messageOf(() => s.at(Number.POSITIVE_INFINITY))).toBe('step must be a finite training step ≥ 0, got Infinity');
    expect(messageOf(() => s.at('5' as unknown as number))).toBe('step must be a finite training step ≥ 0, got "5"');
    expect(messageOf(() => s.atMany([0, 1, -2]))).toBe('steps[2] must be a finite training step ≥ 0, got -2');
    expect(messageOf(() => s.atMany([0, '1' as unknown as number]))).toBe('steps[1] must be a finite training step ≥ 0, got "1"');
    expect(messageOf(() => s.atMany([0, 1, 2], new Float64Array(2)))).toBe('out must be a Float64Array of length ≥ 3, got 2');
  });
});
