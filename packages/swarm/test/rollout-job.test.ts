import { ParlInputError, resolveOptions } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { MAX_ROLLOUT_RESULT_BYTES, runRolloutJob, SWARM_RUN_OPTIONS } from '../src/index.js';
import { rolloutJob } from '../src/jobs/rollout-job.js';
import { scriptedMock } from './support.js';

const options = resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://127.0.0.1:9/v1', model: 'orchestrator', subagents: 'scripted', tasks: '1', seed: '2' }, 'flag');

describe('a rollout job run by a worker', () => {
  it('sends back the line of its task and sample', async () => {
    const line = (await runRolloutJob(rolloutJob(options, 0, 1, false), { models: () => scriptedMock(['no answer']) })).line;
    expect(line).toMatchObject({ sample: 1 });
  });

  it('refuses to send back more than its bound (64 MiB by default), naming the size, the task and what to drop', async () => {
    expect(MAX_ROLLOUT_RESULT_BYTES).toBe(64 * 1024 * 1024);
    const err = await runRolloutJob(rolloutJob(options, 0, 0, true), { models: () => scriptedMock(['no answer']), maxResultBytes: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParlInputError);
    expect((err as ParlInputError).code).toBe('PARL_ERR_LIMIT');
    expect((err as ParlInputError).message).toMatch(/^rollout result must be at most 200 bytes, .*--spans or --logprobs.*, got "\d+ bytes \(task 0, sample 0\)"$/);
  });
});
