/**
 * Real inference over real HTTP: the loopback OpenAI-compatible endpoint of test support serving
 * a tiny GGUF model with node-llama-cpp, driven through `@ai-sdk/openai-compatible`.
 */
import { join } from 'node:path';
import { startLocalLlmServer, type GenerationEvent, type LocalLlmServer } from '@parl/test-support/local-llm/server';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointModel, generateSuite, runEpisode, scriptedLookupModel, type SwarmTask } from '../src/index.js';
import { memoryTracing, numbersOf, orchestratorFrom, readBack, settingsWith } from './support.js';

let dir: TempDir;
let server: LocalLlmServer;
const generations: GenerationEvent[] = [];
const [task] = generateSuite('wide', { tasks: 1, seed: 2, entities: 2, attributes: 1 }) as [SwarmTask];

beforeAll(async () => {
  dir = await makeTempDir('swarm-llm');
  const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
  server = await startLocalLlmServer({ modelPath: model.path, concurrency: 2, onGeneration: (e) => generations.push(e) });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await dir?.remove();
});

describe('real inference through @ai-sdk/openai-compatible', () => {
  it('an orchestrator on the real model completes its episode; its tool calls are the model\'s own, and the spans read back', async () => {
    const tracing = memoryTracing();
    const orchestrator = endpointModel(server.baseURL, server.modelName);
    // The tiny model's context is 2048 byte tokens: a short task without tools of its own, so
    // that the orchestrator's prompt (its two tools) and two turns fit.
    const small: SwarmTask = { id: 'small', kind: 'wide', prompt: 'Name two colors.', tools: [], score: () => 0 };
    const { record, messages } = await runEpisode(small, settingsWith({
      orchestrator,
      subagentModel: scriptedLookupModel(),
      limits: { orchestrator_steps: 2, subagent_steps: 3 },
      tracer: tracing.tracer,
    }));
    expect(['answer', 'orchestrator_steps']).toContain(record.end_reason);
    const replies = messages.filter((m) => m.role === 'assistant');
    expect(replies).toHaveLength(record.stages?.filter((s) => s.main_steps === 1).length ?? -1);
    // Every tool call in the transcript came back over HTTP from the model, named as offered.
    const offered = new Set(['create_subagent', 'assign_task']);
    for (const reply of replies) for (const call of reply.role === 'assistant' ? reply.tool_calls ?? [] : []) expect(offered).toContain(call.function.name);
    expect(record.orchestrator_tool_calls).toBe(replies.reduce((n, r) => n + (r.role === 'assistant' ? r.tool_calls?.length ?? 0 : 0), 0));
    const back = await readBack(tracing.otlpJson());
    expect(back.numbers).toEqual(numbersOf(record));
  }, 120_000);

  it('sub-agents on the real model run in parallel: their generations overlap in wall time', async () => {
    generations.length = 0;
    const tracing = memoryTracing();
    const orchestrator = orchestratorFrom((n) =>
      n === 0
        ? [['create_subagent', { name: 'a', system_prompt: 'Look it up.' }], ['create_subagent', { name: 'b', system_prompt: 'Look it up.' }]]
        : n === 1
          ? [['assign_task', { agent: 'a', prompt: 'Find the first one.' }], ['assign_task', { agent: 'b', prompt: 'Find the second one.' }]]
          : 'done');
    const { record } = await runEpisode(task, settingsWith({
      orchestrator,
      subagentModel: endpointModel(server.baseURL, server.modelName),
      limits: { orchestrator_steps: 3, subagent_steps: 1 },
      concurrency: 2,
      tracer: tracing.tracer,
    }));
    expect(record.stages?.[1]?.sub_steps).toHaveLength(2);
    expect(record.num_subagents).toBe(2);
    // The endpoint decoded the two sub-agents' first calls at the same time (2 sequences).
    const [first, second] = [...generations].sort((x, y) => x.startedAt - y.startedAt);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect((second as GenerationEvent).startedAt).toBeLessThan((first as GenerationEvent).endedAt);
    const back = await readBack(tracing.otlpJson());
    expect(back.numbers).toEqual(numbersOf(record));
  }, 120_000);

  it('with tokenDetails, the orchestrator\'s assistant messages carry the token ids and log-probabilities of each completion; without, none', async () => {
    const small: SwarmTask = { id: 'small', kind: 'wide', prompt: 'Name two colors.', tools: [], score: () => 0 };
    const run = async (tokenDetails: boolean) => {
      const tracing = memoryTracing();
      const { messages } = await runEpisode(small, settingsWith({
        orchestrator: endpointModel(server.baseURL, server.modelName),
        subagentModel: scriptedLookupModel(),
        limits: { orchestrator_steps: 2, subagent_steps: 1 },
        tracer: tracing.tracer,
        tokenDetails,
      }));
      // The completion sizes the endpoint reported, call by call (the orchestrator is the only model on the endpoint here).
      const completions = tracing.exporter
        .getFinishedSpans()
        .filter((span) => span.name === `chat ${server.modelName}`)
        .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])
        .map((span) => span.attributes['gen_ai.usage.output_tokens']);
      return { replies: messages.filter((m) => m.role === 'assistant'), completions };
    };

    const asked = await run(true);
    expect(asked.replies.length).toBeGreaterThan(0);
    expect(asked.completions).toHaveLength(asked.replies.length);
    for (const [i, reply] of asked.replies.entries()) {
      const { token_ids: ids, logprobs } = reply as { token_ids?: unknown; logprobs?: { content?: unknown } };
      expect(Array.isArray(ids)).toBe(true);
      const tokenIds = ids as unknown[];
      expect(tokenIds.length).toBeGreaterThan(0);
      expect(tokenIds.every((t) => Number.isInteger(t) && (t as number) >= 0)).toBe(true);
      // One id and one log-probability per generated token, as many as the completion had.
      expect(tokenIds).toHaveLength(asked.completions[i] as number);
      const content = logprobs?.content as { logprob: number }[];
      expect(content).toHaveLength(tokenIds.length);
      for (const t of content) expect(t.logprob).toBeLessThanOrEqual(0);
    }

    const plain = await run(false);
    expect(plain.replies.length).toBeGreaterThan(0);
    for (const reply of plain.replies) {
      expect(reply).not.toHaveProperty('token_ids');
      expect(reply).not.toHaveProperty('logprobs');
    }
  }, 240_000);
});
