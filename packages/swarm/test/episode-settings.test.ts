import { resolveOptions, REWARD_DEFAULTS } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { endpointSettings } from '../src/jobs/episode-settings.js';
import { SWARM_RUN_OPTIONS } from '../src/index.js';
import { orchestratorFrom } from './support.js';

const base = { 'base-url': 'http://127.0.0.1:1/v1', model: 'm' };
const models = (): ReturnType<typeof orchestratorFrom> => orchestratorFrom(() => 'done');

describe('parl swarm run takes the reward options of core\'s table', () => {
  it('passes --max-subagents and the λ schedules to the episodes instead of fixed values', () => {
    const options = resolveOptions(SWARM_RUN_OPTIONS, { ...base, 'max-subagents': '20', lambda1: 'constant:0.3', 'parallel-shape': 'log' }, 'flag');
    const settings = endpointSettings({ ...options, models });
    expect(settings.maxSubagents).toBe(20);
    expect(settings.reward).toEqual({ lambda1: { kind: 'constant', value: 0.3 }, parallelShape: 'log', totalTrainingSteps: REWARD_DEFAULTS.totalTrainingSteps });
  });

  it("keeps core's defaults when none is given", () => {
    const settings = endpointSettings({ ...resolveOptions(SWARM_RUN_OPTIONS, base, 'flag'), models });
    expect(settings.maxSubagents).toBe(REWARD_DEFAULTS.maxSubagents);
    expect(settings.reward.lambda1).toBeUndefined();
  });

  it('refuses a bad reward option by its flag', () => {
    expect(() => resolveOptions(SWARM_RUN_OPTIONS, { ...base, 'max-subagents': '0' }, 'flag')).toThrow('--max-subagents must be a decimal number > 0, got "0"');
  });
});
