import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { generateSuite, runEpisode, scriptedLookupModel, SwarmProviderError, type EpisodeSettings, type SwarmTask } from '../src/index.js';
import { memoryTracing, mockWith, numbersOf, orchestratorFrom, readBack, settingsWith, systemOf, toolTexts, type Call } from './support.js';

const [task] = generateSuite('wide', { tasks: 1, seed: 3, entities: 4, attributes: 1 }) as [SwarmTask];
const entities = task.prompt.match(/entities (.*), give/)?.[1]?.split(', ') ?? [];
const attribute = task.prompt.match(/give its (\w+)\./)?.[1] ?? '';
const define: Call = ['create_subagent', { name: 'looker', system_prompt: 'You look things up.' }];
const assign = (e: string, agent = 'looker'): Call => ['assign_task', { agent, prompt: `Find the ${attribute} of ${e}.` }];
const quoteLines = (options: Parameters<typeof toolTexts>[0]): string => toolTexts(options).filter((t) => t.includes('|') && !t.startsWith('error')).join('\n');

/** Run an episode with in-memory spans; assert the span property; return the result. */
async function episode(overrides: Partial<EpisodeSettings>) {
  const tracing = memoryTracing();
  const out = await runEpisode(task, settingsWith({ ...overrides, tracer: tracing.tracer }));
  const back = await readBack(tracing.otlpJson());
  expect(back.numbers).toEqual(numbersOf(out.record));
  expect(back.record['stages']).toEqual(out.record.stages);
  return { ...out, spans: tracing.exporter.getFinishedSpans() };
}

const httpError = (status: number): APICallError =>
  new APICallError({ message: `HTTP ${status}`, url: 'http://127.0.0.1:9/v1/chat/completions', requestBodyValues: {}, statusCode: status, isRetryable: status === 429 || status >= 500 });

describe('scripted scenarios: exact records, and spans that read back to the same numbers', () => {
  it('serial collapse: one assign_task per turn gives one stage per sub-agent', async () => {
    const orchestrator = orchestratorFrom((n, options) => (n === 0 ? [define] : n <= 4 ? [assign(entities[n - 1] as string)] : quoteLines(options)));
    const { record } = await episode({ orchestrator });
    expect(record.stages).toEqual([
      { main_steps: 1, sub_steps: [] },
      { main_steps: 1, sub_steps: [{ steps: 3, finished: true }] },
      { main_steps: 1, sub_steps: [{ steps: 3, finished: true }] },
      { main_steps: 1, sub_steps: [{ steps: 3, finished: true }] },
      { main_steps: 1, sub_steps: [{ steps: 3, finished: true }] },
      { main_steps: 1, sub_steps: [] },
    ]);
    expect(record.r_perf).toBe(1);
    expect(numbersOf(record)).toEqual({ critical_steps: 18, total_steps: 18, num_subagents: 4 });
  });

  it('spurious parallelism: eight sub-agents whose model fails are finished: false, and r_finish is 0', async () => {
    const orchestrator = orchestratorFrom((n) =>
      n === 0 ? [define] : n === 1 ? Array.from({ length: 8 }, (_, i) => assign(entities[i % entities.length] as string)) : 'nothing');
    const subagentModel = mockWith(() => {
      throw httpError(400);
    });
    const { record, messages } = await episode({ orchestrator, subagentModel, trainingStep: 0 });
    expect(record.stages).toEqual([
      { main_steps: 1, sub_steps: [] },
      { main_steps: 1, sub_steps: Array.from({ length: 8 }, () => ({ steps: 1, finished: false })) },
      { main_steps: 1, sub_steps: [] },
    ]);
    expect(record).toMatchObject({ num_subagents: 8, assigned_subtasks: 8, completed_subtasks: 0, r_finish: 0, r_perf: 0, training_step: 0 });
    // A 400 is not retried: one call per sub-agent.
    expect(subagentModel.doGenerateCalls).toHaveLength(8);
    expect(messages.filter((m) => m.role === 'tool' && m.content.includes('did not finish'))).toHaveLength(8);
  });

  it('a concurrency limit of 1 runs one turn\'s three sub-agents as one chain: each waits for those before it (spec §2 wait_steps)', async () => {
    const orchestrator = orchestratorFrom((n, options) => (n === 0 ? [define] : n === 1 ? entities.slice(0, 3).map((e) => assign(e)) : quoteLines(options)));
    const { record } = await episode({ orchestrator, concurrency: 1 });
    expect(record.stages).toEqual([
      { main_steps: 1, sub_steps: [] },
      { main_steps: 1, sub_steps: [{ steps: 3, finished: true }, { steps: 3, finished: true, wait_steps: 3 }, { steps: 3, finished: true, wait_steps: 6 }] },
      { main_steps: 1, sub_steps: [] },
    ]);
    expect(numbersOf(record)).toEqual({ critical_steps: 1 + 1 + 9 + 1, total_steps: 12, num_subagents: 3 });
  });

  it('a concurrency limit of 2 never runs more than two sub-agents at once', async () => {
    let running = 0;
    let most = 0;
    const inner = scriptedLookupModel();
    const subagentModel = mockWith(async (options) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setImmediate(r));
      running--;
      return inner.doGenerate(options);
    });
    const orchestrator = orchestratorFrom((n, options) => (n === 0 ? [define] : n === 1 ? entities.map((e) => assign(e)) : quoteLines(options)));
    const { record } = await episode({ orchestrator, subagentModel, concurrency: 2 });
    expect(most).toBe(2);
    expect(record.num_subagents).toBe(4);
    expect(record.r_perf).toBe(1);
  });

  it('a budget that runs out in the middle of a wave stops the wave, aborting the call in flight', async () => {
    const scripted = scriptedLookupModel();
    let aborted = 0;
    const subagentModel = mockWith(async (options) => {
      if (systemOf(options) === 'slow') {
        // Never answers: only the episode's abort ends this call.
        await new Promise((_, reject) => options.abortSignal?.addEventListener('abort', () => {
          aborted++;
          reject(options.abortSignal?.reason);
        }));
      }
      return scripted.doGenerate(options);
    });
    const orchestrator = orchestratorFrom((n) =>
      n === 0 ? [define, ['create_subagent', { name: 'slow', system_prompt: 'slow' }]] : [assign(entities[0] as string), assign(entities[1] as string, 'slow')]);
    const { record, spans } = await episode({ orchestrator, subagentModel, budget: 4 });
    // K = 4: turn 1 (1) + turn 2 (1) + the wave's longest (2); the looker's third call would make 5.
    expect(record.stages).toEqual([
      { main_steps: 1, sub_steps: [] },
      { main_steps: 1, sub_steps: [{ steps: 2, finished: false }, { steps: 1, finished: false }] },
    ]);
    expect(record).toMatchObject({ budget_exhausted: true, end_reason: 'budget', r_perf: 0, completed_subtasks: 0 });
    expect(numbersOf(record).critical_steps).toBe(4);
    expect(aborted).toBe(1);
    expect(spans.filter((s) => s.attributes['error.type'] === 'aborted')).toHaveLength(1);
  });

  it('with on_budget truncate, r_perf scores what finished before the cut', async () => {
    const orchestrator = orchestratorFrom((n) => (n === 0 ? [define] : [assign(entities[n - 1] as string)]));
    // Turns: 1 + (1 + 3) + (1 + 3) = 9; the third turn's call would make 10.
    const { record } = await episode({ orchestrator, budget: 9, onBudget: 'truncate' });
    expect(record.stages).toHaveLength(3);
    expect(record.budget_exhausted).toBe(true);
    // Two of the four rows were found before the cut: F1 = 2·(1·0.5)/(1+0.5).
    expect(record.r_perf).toBeCloseTo(2 / 3, 12);
  });

  it('a sub-agent at its step cap is finished: false, and the orchestrator is told', async () => {
    const orchestrator = orchestratorFrom((n, options) => (n === 0 ? [define] : n === 1 ? [assign(entities[0] as string)] : quoteLines(options)));
    const { record, messages } = await episode({ orchestrator, limits: { orchestrator_steps: 10, subagent_steps: 2 } });
    expect(record.stages).toEqual([
      { main_steps: 1, sub_steps: [] },
      { main_steps: 1, sub_steps: [{ steps: 2, finished: false }] },
      { main_steps: 1, sub_steps: [] },
    ]);
    expect(messages.some((m) => m.role === 'tool' && m.content.includes('cap of 2 model calls'))).toBe(true);
  });

  it('the orchestrator at its step cap ends the episode without an answer', async () => {
    const orchestrator = orchestratorFrom(() => [['search', { query: entities[0] as string }]]);
    const { record } = await episode({ orchestrator, limits: { orchestrator_steps: 3, subagent_steps: 50 } });
    expect(record).toMatchObject({ end_reason: 'orchestrator_steps', r_perf: 0, num_subagents: 0 });
    expect(record.stages).toHaveLength(3);
  });

  it('provider errors: 5xx and 429 are retried a bounded number of times; a sub-agent\'s last failure is finished: false', async () => {
    const scripted = scriptedLookupModel();
    let failures = 2;
    const subagentModel = mockWith(async (options) => {
      if (failures-- > 0) throw httpError(failures === 1 ? 503 : 429);
      return scripted.doGenerate(options);
    });
    const orchestrator = orchestratorFrom((n, options) => (n === 0 ? [define] : n === 1 ? [assign(entities[0] as string)] : quoteLines(options)));
    const { record, spans } = await episode({ orchestrator, subagentModel });
    expect(record.stages).toEqual([
      { main_steps: 1, sub_steps: [] },
      { main_steps: 1, sub_steps: [{ steps: 3, finished: true }] },
      { main_steps: 1, sub_steps: [] },
    ]);
    // The first call took three attempts (429, 503, answer): one step, one chat span.
    expect(subagentModel.doGenerateCalls).toHaveLength(5);
    expect(spans.filter((s) => s.attributes['parl.model.attempts'] === 3)).toHaveLength(1);
  });

  it('the orchestrator\'s provider failing after its retries ends the episode with a named error', async () => {
    const orchestrator = mockWith(() => {
      throw httpError(503);
    });
    await expect(runEpisode(task, settingsWith({ orchestrator }))).rejects.toThrow(SwarmProviderError);
    expect(orchestrator.doGenerateCalls).toHaveLength(3);
    await expect(runEpisode(task, settingsWith({ orchestrator }))).rejects.toThrow(/failed after 3 attempts: HTTP 503 from http:\/\/127\.0\.0\.1:9/);
  });

  it('errors of the model\'s own making go back to it as tool results', async () => {
    const orchestrator = orchestratorFrom((n) =>
      n === 0
        ? [
            define,
            ['create_subagent', { name: 'looker', system_prompt: 'again' }],
            ['create_subagent', { name: 'second', system_prompt: 'x' }],
            ['assign_task', { agent: 'nobody', prompt: 'p' }],
            ['assign_task', { agent: 'looker' }],
            ['assign_task', '{not json'],
            ['teleport', { to: 'x' }],
          ]
        : 'done');
    const { record, messages } = await episode({ orchestrator, maxSubagents: 1 });
    const results = messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toBe('sub-agent "looker" defined');
    expect(results[1]).toBe('error: a sub-agent named "looker" is already defined');
    expect(results[2]).toBe('error: at most 1 sub-agents can be defined in an episode');
    expect(results[3]).toBe('error: no sub-agent named "nobody"; defined: looker');
    expect(results[4]).toBe('error: assign_task needs the argument "prompt" as a string, got nothing');
    expect(results[5]).toMatch(/^error: AI_InvalidToolInputError: Invalid input for tool assign_task/);
    expect(results[6]).toMatch(/^error: AI_NoSuchToolError/);
    expect(record.num_subagents).toBe(0);
  });

  it('a single agent (no assign_task) uses the task\'s tools directly', async () => {
    const orchestrator = orchestratorFrom((n, options) =>
      n === 0 ? [['search', { query: entities.join(' ') }]] : n === 1 ? [['open', { id: 'doc-1' }]] : toolTexts(options).at(-1) ?? '');
    const { record, messages } = await episode({ orchestrator, singleAgent: true });
    expect(record.stages).toEqual([{ main_steps: 1, sub_steps: [] }, { main_steps: 1, sub_steps: [] }, { main_steps: 1, sub_steps: [] }]);
    expect(messages[0]?.content).not.toMatch(/assign_task/);
    expect(orchestrator.doGenerateCalls[0]?.tools?.map((t) => t.name)).toEqual(['search', 'open']);
  });

  it('labels the record with the spec §3 fields when a training step is given', async () => {
    const orchestrator = orchestratorFrom((n, options) => (n === 0 ? [define] : n === 1 ? entities.map((e) => assign(e)) : quoteLines(options)));
    const { record } = await episode({ orchestrator, trainingStep: 0, maxSubagents: 10 });
    // λ1 = λ2 = 0.1 at step 0; r_parallel = 4/10, r_finish = 1, r_perf = 1.
    expect(record['r_parallel']).toBeCloseTo(0.4, 12);
    expect(record['total_reward']).toBeCloseTo(0.1 * 0.4 + 0.1 * 1 + 1, 12);
  });
});

