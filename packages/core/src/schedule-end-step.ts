/**
 * The schedule end step: the training step where a λ schedule reaches its final value, so that a
 * table, chart or report of a schedule shows the whole of its course.
 *
 * @module
 */
import { REWARD_DEFAULTS } from './reward.js';
import { parseSchedule, type ScheduleInput } from './schedules.js';

/**
 * The step where a schedule reaches its final value: `steps` of linear, cosine and exponential
 * schedules, the last point of a piecewise one, a quarter past the last boundary of a step
 * schedule (so that its last value shows), and the default training length (10000) for a constant
 * (or for a step or piecewise schedule whose last change is at step 0).
 *
 * @param schedule - a schedule in short or JSON form, its spec, or a parsed schedule
 * @throws {@link ParlInputError} for a schedule that does not parse
 *
 * @example
 * ```ts
 * scheduleEndStep('linear:0.1:0:4000'); // 4000
 * scheduleEndStep('step:0.1,0:800'); // 1000
 * scheduleEndStep({ kind: 'constant', value: 0.1 }); // 10000
 * ```
 */
export function scheduleEndStep(schedule: ScheduleInput): number {
  const spec = parseSchedule(schedule).spec;
  switch (spec.kind) {
    case 'linear':
    case 'cosine':
    case 'exponential':
      return spec.steps;
    case 'step': {
      const last = spec.boundaries[spec.boundaries.length - 1];
      return last === undefined || last === 0 ? REWARD_DEFAULTS.totalTrainingSteps : Math.ceil(last * 1.25);
    }
    case 'piecewise': {
      const last = spec.points[spec.points.length - 1];
      return last === undefined || last[0] === 0 ? REWARD_DEFAULTS.totalTrainingSteps : last[0];
    }
    case 'constant':
      return REWARD_DEFAULTS.totalTrainingSteps;
  }
}
