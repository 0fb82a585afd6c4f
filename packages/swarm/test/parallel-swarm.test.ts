import { describe, expect, it } from 'vitest';
import { generateSuite, runEpisode } from '../src/index.js';
import { memoryTracing, numbersOf, orchestratorFrom, readBack, settingsWith, toolTexts } from './support.js';

describe('a parallel swarm (mock orchestrator, scripted sub-agents)', () => {
  it('runs one wave of three sub-agents, scores the answer, and its spans read back to the same numbers', async () => {
    const [task] = generateSuite('wide', { tasks: 1, seed: 1, entities: 3, attributes: 1 });
    if (task === undefined) throw new Error('no task');
    const entities = task.prompt.match(/entities (.*), give/)?.[1]?.split(', ') ?? [];
    const attribute = task.prompt.match(/give its (\w+)\./)?.[1] ?? '';
    expect(entities).toHaveLength(3);
    const tracing = memoryTracing();
    const orchestrator = orchestratorFrom((n, options) => {
      if (n === 0) return [['create_subagent', { name: 'looker', system_prompt: 'You look things up.' }]];
      if (n === 1) return entities.map((e) => ['assign_task', { agent: 'looker', prompt: `Find the ${attribute} of ${e}.` }] as const);
      // The final answer quotes the sub-agents' lines.
      return toolTexts(options).filter((t) => t.includes('|')).join('\n');
    });
    const { record, answer, messages } = await runEpisode(task, settingsWith({ orchestrator, tracer: tracing.tracer }));
    expect(answer.split('\n')).toHaveLength(3);
    expect(record).toMatchObject({
      id: task.id,
      task_id: task.id,
      stages: [
        { main_steps: 1, sub_steps: [] },
        { main_steps: 1, sub_steps: [{ steps: 3, finished: true }, { steps: 3, finished: true }, { steps: 3, finished: true }] },
        { main_steps: 1, sub_steps: [] },
      ],
      num_subagents: 3,
      assigned_subtasks: 3,
      completed_subtasks: 3,
      r_perf: 1,
      budget_exhausted: false,
      end_reason: 'answer',
    });
    expect(numbersOf(record)).toEqual({ critical_steps: 6, total_steps: 12, num_subagents: 3 });
    const back = await readBack(tracing.otlpJson());
    expect(back.numbers).toEqual(numbersOf(record));
    expect(back.record['stages']).toEqual(record.stages);
    // The transcript: system, user, then the orchestrator's three replies with the tool results between.
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
  });
});
