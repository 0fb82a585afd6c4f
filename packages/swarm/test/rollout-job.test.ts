import { ParlInputError, resolveOptions } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { SWARM_RUN_OPTIONS } from '../src/index.js';
import { MAX_ROLLOUT_RESULT_BYTES, rolloutJob, runRolloutJob } from '../src/jobs/rollout-job.js';
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

  it('refuses a job that names code or a command to run (a tools module, an MCP server), naming the field; tools are the worker\'s own', async () => {
    const job = rolloutJob(options, 0, 0, false);
    expect(Object.keys(job.options)).not.toContain('tools');
    for (const [flag, text] of [['tools', './evil.mjs'], ['mcp', 'stdio:rm -rf /']] as const) {
      const err = await runRolloutJob({ ...job, options: { ...job.options, [flag]: text } }, { models: () => scriptedMock(['no answer']) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ParlInputError);
      expect((err as ParlInputError).field).toBe(`job.options.${flag}`);
      expect((err as Error).message).toContain('never names code or a command to run');
    }
  });

  it('gives the episode the worker\'s own tools', async () => {
    const { loadToolsModule } = await import('../src/tools/module-provider.js');
    const provider = await loadToolsModule(new URL('./fixtures/tools-module.mjs', import.meta.url).pathname);
    const { orchestratorFrom, toolTexts } = await import('./support.js');
    const orchestrator = orchestratorFrom((n, o) => (n === 0 ? [['multiply', { a: 3, b: 4 }]] : toolTexts(o).join('')));
    const { line } = await runRolloutJob(rolloutJob(options, 0, 0, false), { models: () => orchestrator, toolProviders: [provider] });
    expect(JSON.stringify(line['messages'])).toContain('{\\"product\\":12}');
  });
});
