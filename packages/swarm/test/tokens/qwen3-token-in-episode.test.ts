import { startTokenCompletionsEndpoint, type TokenCompletionsEndpoint } from '@parl/test-support/token-completions-endpoint';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateSuite, runEpisode, scriptedLookupModel, SwarmProviderError } from '../../src/index.js';
import { loadTokenInModel, type TokenInModel } from '../../src/tokens/token-in-model.js';
import { scriptedMock } from '../support.js';
import { QWEN3_FOLDER } from './qwen3-folder.js';

const IM_END = 151645;
let model: TokenInModel;
let endpoint: TokenCompletionsEndpoint | undefined;
beforeAll(async () => {
  model = await loadTokenInModel({ tokenizer: QWEN3_FOLDER, toolCallParser: 'hermes', reasoningParser: 'qwen3' });
});
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

const encode = (text: string): number[] => model.folder.tokenizer.encode(text);
const decode = (ids: readonly number[]): string => model.folder.tokenizer.decode(ids);
const task = generateSuite('wide', { tasks: 1, seed: 3, entities: 2, attributes: 1 })[0];
if (task === undefined) throw new Error('no task');

/** Qwen3 completions as a model samples them: reasoning, then compact-JSON tool calls (never what the template would re-render). */
const COMPLETIONS = [
  '<think>\nDefine a researcher, then give it the look-ups.\n</think>\n\n<tool_call>\n{"name":"create_subagent","arguments":{"name":"researcher","system_prompt":"Look things up."}}\n</tool_call>',
  '<think>\nNow assign.\n</think>\n\n<tool_call>\n{"name":"assign_task","arguments":{"agent":"researcher","prompt":"look up everything"}}\n</tool_call>\n<tool_call>\n{"name":"nope","arguments":{}}\n</tool_call>',
  '<think>\nDone.\n</think>\n\nI could not find it.',
];

describe('an episode with token in, through a token-level completions endpoint and Qwen3\'s real tokenizer and template', () => {
  it('every prompt is the previous prompt + completion + bridge; the trajectory is exact, logprobs as served, no retokenized_at', async () => {
    const completions = COMPLETIONS.map((t) => [...encode(t), IM_END]);
    endpoint = await startTokenCompletionsEndpoint((_, i) => ({ ids: completions[Math.min(i, completions.length - 1)] ?? [] }));
    const result = await runEpisode(task, {
      orchestrator: scriptedMock(['unused']),
      subagentModel: scriptedLookupModel(),
      tokenIn: { model, endpoint: { baseUrl: endpoint.baseURL, model: 'Qwen/Qwen3-8B' } },
    });
    const requests = endpoint.requests;
    expect(requests).toHaveLength(3);
    for (const r of requests) expect(r).toMatchObject({ model: 'Qwen/Qwen3-8B', max_tokens: 4096, logprobs: 1, return_token_ids: true });
    const bridges: number[][] = [];
    for (let k = 1; k < requests.length; k++) {
      const previous = [...(requests[k - 1]?.prompt ?? []), ...(completions[k - 1] ?? [])];
      const prompt = requests[k]?.prompt ?? [];
      expect(prompt.slice(0, previous.length)).toEqual(previous);
      bridges.push(prompt.slice(previous.length));
    }
    expect(decode(bridges[0] ?? [])).toMatch(/^\n<\|im_start\|>user\n<tool_response>\n.*researcher.*\n<\/tool_response><\|im_end\|>\n<\|im_start\|>assistant\n$/s);
    expect(decode(bridges[1] ?? [])).toMatch(/^\n<\|im_start\|>user\n<tool_response>\n[^]*\n<\/tool_response>\n<tool_response>\nerror: no tool named "nope"\n<\/tool_response><\|im_end\|>\n<\|im_start\|>assistant\n$/);
    expect(result.record.end_reason).toBe('answer');
    expect(result.answer).toBe('I could not find it.');
    expect(result.record.orchestrator_tool_calls).toBe(3);
    const t = result.trajectory;
    expect(t).toBeDefined();
    expect(t).not.toHaveProperty('retokenized_at');
    expect(t?.prompt_ids).toEqual(requests[0]?.prompt);
    const c = completions;
    expect(t?.response_ids).toEqual([...(c[0] ?? []), ...(bridges[0] ?? []), ...(c[1] ?? []), ...(bridges[1] ?? []), ...(c[2] ?? [])]);
    expect(t?.response_mask).toEqual([...(c[0] ?? []).map(() => 1), ...(bridges[0] ?? []).map(() => 0), ...(c[1] ?? []).map(() => 1), ...(bridges[1] ?? []).map(() => 0), ...(c[2] ?? []).map(() => 1)]);
    expect(t?.response_logprobs.filter((_, i) => t.response_mask[i] === 1)).toEqual(endpoint.served);
    // The transcript says what was parsed: reasoning split off, the calls as called.
    expect(result.messages[2]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_0_0', function: { name: 'create_subagent' } }] });
  });

  it('a prompt that would pass --max-model-len ends the episode with end_reason "context", and max_tokens is the room left', async () => {
    const first = [...encode(COMPLETIONS[0] ?? ''), IM_END];
    endpoint = await startTokenCompletionsEndpoint(() => ({ ids: first }));
    const probe = await startTokenCompletionsEndpoint(() => ({ ids: first }));
    // The first prompt's length, from a run without a limit.
    await runEpisode(task, { orchestrator: scriptedMock(['unused']), subagentModel: scriptedLookupModel(), limits: { orchestrator_steps: 1, subagent_steps: 5 }, tokenIn: { model, endpoint: { baseUrl: probe.baseURL, model: 'm' } } });
    const promptLength = probe.requests[0]?.prompt.length ?? 0;
    await probe.close();
    const maxModelLen = promptLength + first.length + 5;
    const result = await runEpisode(task, { orchestrator: scriptedMock(['unused']), subagentModel: scriptedLookupModel(), tokenIn: { model: { ...model, maxModelLen }, endpoint: { baseUrl: endpoint.baseURL, model: 'm' } } });
    expect(endpoint.requests).toHaveLength(1);
    expect(endpoint.requests[0]?.max_tokens).toBe(maxModelLen - promptLength);
    expect(result.record.end_reason).toBe('context');
    expect(result.trajectory?.response_ids).toEqual(first);
  });

  it('a 503 is retried by the one retry helper; a 400 is not', async () => {
    const { createServer } = await import('node:http');
    const answer = [...encode('Paris.'), IM_END];
    let calls = 0;
    let status = 503;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls++;
        if (calls === 1) return void res.writeHead(status, { 'content-type': 'application/json', 'retry-after-ms': '1' }).end('{"error":{"message":"busy"}}');
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ token_ids: answer, logprobs: { token_logprobs: answer.map(() => -1) }, finish_reason: 'stop' }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    const run = () => runEpisode(task, { orchestrator: scriptedMock(['unused']), subagentModel: scriptedLookupModel(), retry: { attempts: 3, baseDelayMs: 1, timeoutMs: 10_000 }, tokenIn: { model, endpoint: { baseUrl, model: 'm' } } });
    try {
      const result = await run();
      expect(calls).toBe(2);
      expect(result.answer).toBe('Paris.');
      calls = 0;
      status = 400;
      const err = await run().then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(SwarmProviderError);
      expect((err as SwarmProviderError).status).toBe(400);
      expect(calls).toBe(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('an endpoint that returns no token ids is a provider error naming what to ask for', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ text: 'hi', finish_reason: 'stop' }] })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const err = await runEpisode(task, { orchestrator: scriptedMock(['unused']), subagentModel: scriptedLookupModel(), tokenIn: { model, endpoint: { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' } } }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(SwarmProviderError);
      expect(String(err)).toMatch(/return_token_ids/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
