/**
 * Token in on real inference: the tiny GGUF model of test support served by llama.cpp
 * (node-llama-cpp) on `/v1/completions` with token-id prompts, and the model's folder written by
 * the test (a `tokenizer.json` of its byte vocabulary, a ChatML template). Its first two
 * completions follow a grammar that forces a hermes tool call (the model still samples every
 * token and its log-probabilities are its own); the last is free text.
 */
import { join } from 'node:path';
import { startLocalLlmServer, type LocalLlmServer } from '@parl/test-support/local-llm/server';
import { writeTinyModelFolder } from '@parl/test-support/local-llm/tiny-model-folder';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEpisode, scriptedLookupModel, type SwarmTask } from '../../src/index.js';
import { loadTokenInModel, type TokenInModel } from '../../src/tokens/token-in-model.js';
import { scriptedMock } from '../support.js';

const CALLS = [
  String.raw`root ::= "<tool_call>\n{\"name\":\"create_subagent\",\"arguments\":{\"name\":\"a\",\"system_prompt\":\"" [a-z] [a-z]? [a-z]? "\"}}\n</tool_call>"`,
  String.raw`root ::= "<tool_call>\n{\"name\":\"assign_task\",\"arguments\":{\"agent\":\"a\",\"prompt\":\"" [a-z] [a-z]? [a-z]? "\"}}\n</tool_call>"`,
];
const CONTEXT = 4096;

let dir: TempDir;
let server: LocalLlmServer;
let model: TokenInModel;
beforeAll(async () => {
  dir = await makeTempDir('token-in-llm');
  const gguf = await writeTinyGguf(join(dir.path, 'tiny.gguf'), { contextLength: CONTEXT });
  await writeTinyModelFolder(dir.path);
  server = await startLocalLlmServer({ modelPath: gguf.path, concurrency: 1, completionGrammar: (i) => CALLS[i] });
  model = await loadTokenInModel({ tokenizer: dir.path, toolCallParser: 'hermes', reasoningParser: 'none', maxModelLen: CONTEXT });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await dir?.remove();
});

/** The runs of equal mask values, as [value, start, end). */
function runs(mask: readonly number[]): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (const [i, m] of mask.entries()) {
    const last = out.at(-1);
    if (last !== undefined && last[0] === m) last[2] = i + 1;
    else out.push([m, i, i + 1]);
  }
  return out;
}

describe('token in through llama.cpp on the tiny model', () => {
  it('the folder\'s tokenizer.json gives one token per byte and the control tokens as their ids', () => {
    expect(model.folder.tokenizer.encode('<|im_start|>user\nhi<|im_end|>')).toEqual([257, ...Buffer.from('user\nhi'), 258]);
    expect(model.folder.tokenizer.decode([...Buffer.from('é ok'), 258])).toBe('é ok<|im_end|>');
  });

  it('an episode on the real model: every prompt extends the last by the completion and the bridge; logprobs are the model\'s', async () => {
    const task: SwarmTask = { id: 'small', kind: 'wide', prompt: 'Name two colors.', tools: [], score: () => 0 };
    const result = await runEpisode(task, {
      orchestrator: scriptedMock(['unused']),
      subagentModel: scriptedLookupModel(),
      limits: { orchestrator_steps: 3, subagent_steps: 3 },
      tokenIn: { model, endpoint: { baseUrl: server.baseURL, model: server.modelName } },
    });
    const t = result.trajectory;
    if (t === undefined) throw new Error('no trajectory');
    expect(t).not.toHaveProperty('retokenized_at');
    const decode = (ids: readonly number[]): string => model.folder.tokenizer.decode(ids);
    const system = result.messages[0]?.content as string;
    expect(decode(t.prompt_ids)).toBe(`<|im_start|>system\n${system}<|im_end|>\n<|im_start|>user\nName two colors.<|im_end|>\n<|im_start|>assistant\n`);
    const parts = runs(t.response_mask);
    expect(parts.map((p) => p[0])).toEqual([1, 0, 1, 0, 1]);
    const text = (p: [number, number, number] | undefined): string => decode(t.response_ids.slice(p?.[1], p?.[2]));
    expect(text(parts[0])).toMatch(/^<tool_call>\n\{"name":"create_subagent","arguments":\{"name":"a","system_prompt":"[a-z]{1,3}"\}\}\n<\/tool_call>(<\|im_end\|>)?$/);
    expect(text(parts[1])).toMatch(/^(<\|im_end\|>)?\n<\|im_start\|>tool\n.*<\|im_end\|>\n<\|im_start\|>assistant\n$/s);
    expect(text(parts[2])).toMatch(/^<tool_call>\n\{"name":"assign_task"/);
    expect(result.record.orchestrator_tool_calls).toBe(2);
    expect(result.record.end_reason).toBe('answer');
    const sampled = t.response_logprobs.filter((_, i) => t.response_mask[i] === 1);
    for (const lp of sampled) expect(lp).toBeLessThanOrEqual(0);
    expect(new Set(sampled).size).toBeGreaterThan(1);
    expect(t.response_logprobs.filter((_, i) => t.response_mask[i] === 0).every((lp) => lp === 0)).toBe(true);
  }, 120_000);
});
