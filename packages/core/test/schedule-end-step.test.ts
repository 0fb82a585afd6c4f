import { describe, expect, it } from 'vitest';
import { ParlInputError } from '../src/errors.js';
import { scheduleEndStep } from '../src/schedule-end-step.js';
import { parseSchedule } from '../src/schedules.js';

describe('scheduleEndStep', () => {
  it('is where each kind of schedule reaches its final value', () => {
    expect(scheduleEndStep({ kind: 'linear', from: 1, to: 0, steps: 400 })).toBe(400);
    expect(scheduleEndStep('cosine:0.3:0:2000')).toBe(2000);
    expect(scheduleEndStep({ kind: 'exponential', from: 1, to: 0.1, steps: 50 })).toBe(50);
    expect(scheduleEndStep('piecewise:0=0,500=0.1,7000=0')).toBe(7000);
    expect(scheduleEndStep(parseSchedule('constant:0.2'))).toBe(10000);
  });

  it('shows the last value of a step schedule a quarter past its last boundary', () => {
    expect(scheduleEndStep({ kind: 'step', values: [1, 0], boundaries: [800] })).toBe(1000);
    const end = scheduleEndStep('step:0.1,0.05,0:3000,6000');
    expect(end).toBe(7500);
    expect(parseSchedule('step:0.1,0.05,0:3000,6000').at(end)).toBe(0);
  });

  it('takes the default training length when the last change is at step 0', () => {
    expect(scheduleEndStep({ kind: 'piecewise', points: [[0, 0.1]] })).toBe(10000);
  });

  it('rejects a schedule that does not parse', () => {
    expect(() => scheduleEndStep('linear:0.1')).toThrow(ParlInputError);
  });
});
