import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startLocalLlmServer, type LocalLlmServer } from '../src/local-llm/server.js';
import { writeTinyGguf } from '../src/local-llm/tiny-model.js';
import { makeTempDir, type TempDir } from '../src/temp-dir.js';

let dir: TempDir;
let server: LocalLlmServer;

beforeAll(async () => {
  dir = await makeTempDir('ai-sdk');
  const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
  server = await startLocalLlmServer({ modelPath: model.path });
});
afterAll(async () => {
  await server?.close();
  await dir.remove();
});

function provider() {
  return createOpenAICompatible({ name: 'local', baseURL: server.baseURL });
}

const assignTask = z.object({ agent: z.string(), prompt: z.string() });

describe('the endpoint through @ai-sdk/openai-compatible', () => {
  it('generateText answers text with token usage', async () => {
    const result = await generateText({ model: provider()(server.modelName), prompt: 'Hello.', maxOutputTokens: 40, seed: 4 });
    expect(typeof result.text).toBe('string');
    expect(['stop', 'length']).toContain(result.finishReason);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('passes provider options through to the body: return_token_ids comes back in the raw response', async () => {
    const result = await generateText({
      model: provider()(server.modelName),
      prompt: 'Ids.',
      maxOutputTokens: 20,
      providerOptions: { local: { return_token_ids: true } },
      include: { responseBody: true },
    });
    const body = result.response.body as { choices: { token_ids: number[] }[] };
    expect(body.choices[0]!.token_ids).toHaveLength(result.usage.outputTokens!);
  });

  it('generateText with a required tool returns the model\'s own call, parsed against the tool schema', async () => {
    const result = await generateText({
      model: provider()(server.modelName),
      prompt: 'Split the work.',
      tools: { assign_task: tool({ description: 'Give a sub-agent a task', inputSchema: assignTask }) },
      toolChoice: 'required',
      seed: 2,
    });
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls.length).toBeGreaterThanOrEqual(1);
    for (const call of result.toolCalls) {
      expect(call.toolName).toBe('assign_task');
      expect(assignTask.safeParse(call.input).success).toBe(true);
    }
  });

  it('runs a multi-step tool loop: tool results go back and the endpoint reads them', async () => {
    const executed: unknown[] = [];
    const result = await generateText({
      model: provider()(server.modelName),
      prompt: 'Look things up, then answer.',
      tools: {
        lookup: tool({
          description: 'Look up a word',
          inputSchema: z.object({ word: z.string() }),
          execute: async (input) => {
            executed.push(input);
            return `definition ${executed.length}`;
          },
        }),
      },
      stopWhen: stepCountIs(3),
      seed: 5,
    });
    expect(result.steps.length).toBeGreaterThanOrEqual(1);
    expect(result.steps.length).toBeLessThanOrEqual(3);
    const calls = result.steps.flatMap((step) => step.toolCalls);
    expect(executed).toHaveLength(calls.length);
    // every step after the first was prompted with the tool results of the one before
    for (const step of result.steps.slice(1)) expect(step.usage.inputTokens).toBeGreaterThan(result.steps[0]!.usage.inputTokens!);
  });
});
