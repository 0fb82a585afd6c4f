import { describe, expect, it } from 'vitest';
import { EPISODE_DEFAULTS, generateSuite, runEpisode, type SwarmTask } from '../src/index.js';
import { ORCHESTRATOR_TOOLS } from '../src/runtime/orchestrator-tools.js';
import { mockWith, result, systemOf } from './support.js';

const [task] = generateSuite('wide', { tasks: 1, seed: 5, entities: 2, attributes: 1 }) as [SwarmTask];

describe('runEpisode(task, { orchestrator }): every other setting at its default', () => {
  it('runs with the orchestrator alone; the sub-agents use the same model; no §2/§3 fields without a training step', async () => {
    const systems: string[] = [];
    // One model in both seats: the orchestrator defines and assigns, the sub-agent answers at once.
    const model = mockWith((options, n) => {
      systems.push(systemOf(options));
      if (systemOf(options) === 'You look things up.') return result('sub-agent answer');
      return result(n === 0
        ? [['create_subagent', { name: 'a', system_prompt: 'You look things up.' }], ['assign_task', { agent: 'a', prompt: 'go' }]]
        : 'final');
    }, 'one-model');
    const { record, answer } = await runEpisode(task, { orchestrator: model });
    expect(answer).toBe('final');
    expect(record.stages).toEqual([
      { main_steps: 1, sub_steps: [{ steps: 1, finished: true }] },
      { main_steps: 1, sub_steps: [] },
    ]);
    expect(systems.filter((s) => s === 'You look things up.')).toHaveLength(1);
    expect(record).not.toHaveProperty('training_step');
    expect(record).not.toHaveProperty('total_reward');
    expect(record.tool_errors).toBe(0);
  });

  it('documents its defaults', () => {
    expect(EPISODE_DEFAULTS).toMatchObject({ concurrency: 8, maxSubagents: 100, onBudget: 'fail', singleAgent: false, toolsFor: 'both', toolTimeoutMs: 60_000 });
    expect(Object.keys(ORCHESTRATOR_TOOLS)).toEqual(['create_subagent', 'assign_task']);
    expect(ORCHESTRATOR_TOOLS.assign_task.parameters).toHaveProperty('agent');
  });
});
