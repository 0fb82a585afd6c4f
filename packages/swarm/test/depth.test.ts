import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { generateSuite, runEpisode, type EpisodeSettings, type SwarmTask } from '../src/index.js';
import { memoryTracing, mockWith, numbersOf, orchestratorFrom, readBack, result, settingsWith, systemOf, toolTexts } from './support.js';

const [task] = generateSuite('wide', { tasks: 1, seed: 4, entities: 2, attributes: 1 }) as [SwarmTask];

/** The orchestrator: defines a lead and assigns it one task, then answers. */
const orchestrator = () => orchestratorFrom((n) => (n === 0
  ? [['create_subagent', { name: 'lead', system_prompt: 'You lead.' }], ['assign_task', { agent: 'lead', prompt: 'Find both.' }]]
  : 'done'));

/**
 * The sub-agents' model: a lead defines a looker and assigns it two look-ups in one reply, then
 * answers with what they returned; a looker answers at once, or after one search when asked to be slow.
 */
const subagents = () => mockWith((options: LanguageModelV3CallOptions) => {
  const results = toolTexts(options);
  const user = options.prompt.find((m) => m.role === 'user');
  const prompt = user?.role === 'user' ? user.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
  if (systemOf(options) === 'You lead.') {
    return result(results.length === 0
      ? [['create_subagent', { name: 'looker', system_prompt: 'You look.' }], ['assign_task', { agent: 'looker', prompt: 'quick' }], ['assign_task', { agent: 'looker', prompt: 'slow' }]]
      : `lead: ${results.join(' / ')}`);
  }
  if (prompt === 'slow' && results.length === 0) return result([['search', { query: 'anything' }]]);
  return result(`looked (${prompt})`);
});

/** Run with in-memory spans; the spans read back (parl trace) to the record's numbers and stages. */
async function episode(overrides: Partial<EpisodeSettings>) {
  const tracing = memoryTracing();
  const out = await runEpisode(task, settingsWith({ orchestrator: orchestrator(), subagentModel: subagents(), depth: 2, ...overrides, tracer: tracing.tracer }));
  const back = await readBack(tracing.otlpJson());
  expect(back.numbers).toEqual(numbersOf(out.record));
  return { ...out, back };
}

const lead = (stages: unknown, finished = true) => ({ stages, finished });

describe('--depth 2: sub-agents that delegate (spec §5.2, §10.3)', () => {
  it('the lead\'s entry nests its own stages; the record is exact and parl trace reads the spans back to the same numbers', async () => {
    const { record, back } = await episode({});
    expect(record.stages).toEqual([
      { main_steps: 1, sub_steps: [lead([
        { main_steps: 1, sub_steps: [{ steps: 1, finished: true }, { steps: 2, finished: true }] },
        { main_steps: 1, sub_steps: [] },
      ])] },
      { main_steps: 1, sub_steps: [] },
    ]);
    expect(numbersOf(record)).toEqual({ critical_steps: 6, total_steps: 7, num_subagents: 1 });
    expect(back.numbers).toEqual({ critical_steps: 6, total_steps: 7, num_subagents: 1 });
    expect(record.completed_subtasks).toBe(1);
  });

  it('at depth 1 (the default) a sub-agent has no create_subagent: its call is an unknown tool, and the entry stays flat', async () => {
    const { record } = await episode({ depth: 1 });
    expect(record.stages?.[0]).toEqual({ main_steps: 1, sub_steps: [{ steps: 2, finished: true }] });
    expect(record.tool_errors).toBeGreaterThanOrEqual(1);
  });

  it('concurrency 1 holds over the whole tree without a deadlock: the lead gives its place back while its lookers run', async () => {
    const { record } = await episode({ concurrency: 1 });
    const [first] = record.stages as unknown as [{ sub_steps: [{ stages: { sub_steps: { steps: number; wait_steps?: number }[] }[] }] }];
    // The two look-ups could not run together: as run (spec §2, §7), the one that took the slot
    // after the other ended waited that one's steps.
    const group = first.sub_steps[0].stages.find((s) => s.sub_steps.length === 2)?.sub_steps;
    expect(group).toBeDefined();
    const waited = group?.find((e) => (e.wait_steps ?? 0) > 0);
    const other = group?.find((e) => e !== waited);
    expect(waited?.wait_steps).toBe(other?.steps);
    expect(record.end_reason).toBe('answer');
  });

  it('the budget holds over the whole record: a call deep in the tree that would pass K is never started', async () => {
    // After the lead's first call and its lookers the critical steps are 1 + (1 + 2) = 4; its answer would make 5.
    const { record } = await episode({ budget: 4 });
    expect(record.budget_exhausted).toBe(true);
    expect(record.end_reason).toBe('budget');
    expect(numbersOf(record).critical_steps).toBeLessThanOrEqual(4);
    expect(record.stages?.[0]).toEqual({ main_steps: 1, sub_steps: [lead([{ main_steps: 1, sub_steps: [{ steps: 1, finished: true }, { steps: 2, finished: true }] }], false)] });
  });

  it('max_subagents counts definitions over the whole tree', async () => {
    const { record, messages } = await episode({ maxSubagents: 1 });
    // The lead could define nobody: its entry is flat, and its definition came back as an error it read.
    expect(record.stages?.[0]).toEqual({ main_steps: 1, sub_steps: [{ steps: 2, finished: true }] });
    expect(JSON.stringify(messages)).toContain('at most 1 sub-agents can be defined in an episode');
  });
});
