/**
 * Issue 29 item 1: sub-agents that wait for a free slot count in critical steps (spec §2
 * `wait_steps`, §10), live and in `parl trace` on the spans, and the live budget check counts
 * them, so a low concurrency never hides latency from the budget.
 */
import { describe, expect, it } from 'vitest';
import { generateSuite, runEpisode, type EpisodeSettings, type SwarmTask } from '../src/index.js';
import { memoryTracing, numbersOf, orchestratorFrom, readBack, settingsWith, type Call } from './support.js';

// 20 entities, one attribute: each sub-agent's look-up finds its entity, so it takes 3 model calls
// (search, open, answer) with the scripted sub-agent model.
const [task] = generateSuite('wide', { tasks: 1, seed: 5, entities: 20, attributes: 1 }) as [SwarmTask];
const entities = task.prompt.match(/entities (.*), give/)?.[1]?.split(', ') ?? [];
const attribute = task.prompt.match(/give its (\w+)\./)?.[1] ?? '';
const define: Call = ['create_subagent', { name: 'looker', system_prompt: 'You look things up.' }];
const assign = (e: string): Call => ['assign_task', { agent: 'looker', prompt: `Find the ${attribute} of ${e}.` }];

/** One response defines the sub-agent and assigns all 20 look-ups; the next one answers. */
const orchestrator = () => orchestratorFrom((n) => (n === 0 ? [define, ...entities.map(assign)] : 'done'));

async function episode(overrides: Partial<EpisodeSettings>) {
  const tracing = memoryTracing();
  const out = await runEpisode(task, settingsWith({ orchestrator: orchestrator(), ...overrides, tracer: tracing.tracer }), `${task.id}/rollout-0`);
  return { record: out.record, back: await readBack(tracing.otlpJson()) };
}

describe('pooled sub-agents: critical steps as run (spec §2, §7, §10)', () => {
  it('has 20 entities to look up', () => {
    expect(entities).toHaveLength(20);
  });

  // 20 sub-agents × 3 model calls assigned in one response, then the answer:
  // slots 20: 1 + 3 + 1 = 5; slots 2: ten rounds of two, 1 + 30 + 1 = 32; one slot: 1 + 60 + 1 = 62.
  it.each([
    [20, 5],
    [2, 32],
    [1, 62],
  ])('at concurrency %i the record has %i critical steps, and parl trace on its spans the same', async (concurrency, critical) => {
    const { record, back } = await episode({ concurrency });
    expect(record.budget_exhausted).toBe(false);
    expect(numbersOf(record)).toEqual({ critical_steps: critical, total_steps: 62, num_subagents: 20 });
    const subs = (record.stages as unknown as { sub_steps: { steps: number; wait_steps?: number }[] }[])[0]?.sub_steps ?? [];
    // the k-th sub-agent to take a slot waited for ⌊k / concurrency⌋ rounds of 3 steps
    expect(subs.map((s) => s.wait_steps ?? 0)).toEqual(subs.map((_, k) => 3 * Math.floor(k / concurrency)));
    // parl trace on the spans: the same numbers and stages, keyed by the rollout id
    expect(back.numbers).toEqual(numbersOf(record));
    expect(back.record['stages']).toEqual(record.stages);
    expect(back.record['id']).toBe(record.id);
  });

  it('--budget 10 --concurrency 2 is cut: the third round reaches 10, the fourth would start at 11', async () => {
    const { record, back } = await episode({ concurrency: 2, budget: 10 });
    expect(record).toMatchObject({ budget_exhausted: true, end_reason: 'budget' });
    expect(numbersOf(record).critical_steps).toBe(10);
    const subs = (record.stages as unknown as { sub_steps: { steps: number; finished: boolean; wait_steps?: number }[] }[])[0]?.sub_steps ?? [];
    expect(subs.map((s) => [s.wait_steps ?? 0, s.steps, s.finished])).toEqual([
      [0, 3, true],
      [0, 3, true],
      [3, 3, true],
      [3, 3, true],
      [6, 3, true],
      [6, 3, true],
    ]);
    expect(back.numbers).toEqual(numbersOf(record));
    expect(back.record['stages']).toEqual(record.stages);
  });
});
