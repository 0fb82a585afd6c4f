/**
 * Scripted baselines: always-serial, always-max-parallel and balanced.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { MODE_DIRECT, MODE_LAUNCH, type ActionBatch } from '../engine/actions.js';
import type { Policy } from './policy.js';
import type { SwarmBatch } from '../engine/swarm-batch.js';

import { SCRIPTED_POLICY_NAMES, type ScriptedPolicyName } from '../names.js';

export { SCRIPTED_POLICY_NAMES, type ScriptedPolicyName };

const serial: Policy = {
  kind: 'scripted',
  name: 'serial',
  act(_env: SwarmBatch, _list: Int32Array, length: number, _greedy: boolean, out: ActionBatch): void {
    out.mode.fill(MODE_DIRECT, 0, length);
  },
};

const maxParallel: Policy = {
  kind: 'scripted',
  name: 'max-parallel',
  act(env: SwarmBatch, list: Int32Array, length: number, _greedy: boolean, out: ActionBatch): void {
    const k = env.env.maxSubagentsPerGroup;
    for (let r = 0; r < length; r++) {
      out.mode[r] = MODE_LAUNCH;
      out.width[r] = k;
      out.handout[r] = env.readyCount[list[r] as number] as number;
    }
  },
};

const balanced: Policy = {
  kind: 'scripted',
  name: 'balanced',
  act(env: SwarmBatch, list: Int32Array, length: number, _greedy: boolean, out: ActionBatch): void {
    const max = env.env.maxSubagentsPerGroup;
    for (let r = 0; r < length; r++) {
      const ready = env.readyCount[list[r] as number] as number;
      out.mode[r] = MODE_LAUNCH;
      out.width[r] = ready < max ? ready : max;
      out.handout[r] = ready;
    }
  },
};

const SCRIPTED: Record<ScriptedPolicyName, Policy> = { serial, 'max-parallel': maxParallel, balanced };

/** True when `name` names a scripted policy. */
export function isScriptedPolicyName(name: unknown): name is ScriptedPolicyName {
  return typeof name === 'string' && (SCRIPTED_POLICY_NAMES as readonly string[]).includes(name);
}

/**
 * A scripted baseline policy:
 * - `serial`: always a direct call (the orchestrator does every subtask itself, one per stage);
 * - `max-parallel`: always launch the largest group allowed and hand out every ready subtask;
 * - `balanced`: launch one sub-agent per ready subtask (capped at the group limit), hand out all.
 *
 * @throws {@link @parl/core!ParlInputError} naming the value and the valid names when unknown
 *
 * @example
 * ```ts
 * const records = await simulate({ policy: scriptedPolicy('serial'), episodes: 10 });
 * ```
 */
export function scriptedPolicy(name: string): Policy {
  if (!isScriptedPolicyName(name)) {
    throw new ParlInputError('policy', name, `one of ${SCRIPTED_POLICY_NAMES.map((n) => `"${n}"`).join(', ')}`);
  }
  return SCRIPTED[name];
}
