/** What the core tests share: the spec §5 example record and a helper that reads an error's message. */
import { expect } from 'vitest';
import { ParlInputError, type StageRecord } from '../src/index.js';

/** The message of the ParlInputError that `fn` throws (fails the test when it throws nothing else). */
export function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ParlInputError);
    return (err as Error).message;
  }
  throw new Error('expected a ParlInputError, but nothing was thrown');
}

/** The stages of the spec §5 example. Critical steps per stage: 1+5 = 6, 1+9 = 10, 1+0 = 1 (cumulative 6, 16, 17). */
export const SPEC_STAGES: StageRecord[] = [
  { main_steps: 1, sub_steps: [3, 5, 2] },
  {
    main_steps: 1,
    sub_steps: [
      { steps: 4, finished: true },
      { steps: 9, finished: false },
    ],
  },
  { main_steps: 1, sub_steps: [] },
];

/** The spec §5 example record. */
export const SPEC_RECORD = {
  id: 'task-17/rollout-3',
  training_step: 5000,
  num_subagents: 25,
  assigned_subtasks: 25,
  completed_subtasks: 20,
  success: true,
  quality: 0.8,
  stages: SPEC_STAGES,
};
