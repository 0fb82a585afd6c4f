/** A record entry's steps for tests: a plain number, `steps`, or a nested entry's own critical steps (spec §5.2). */
import { criticalSteps, type SubAgentEntry } from '@parl/core';

export function entrySteps(e: SubAgentEntry): number {
  if (typeof e === 'number') return e;
  return 'stages' in e ? criticalSteps(e.stages).critical_steps : e.steps;
}
