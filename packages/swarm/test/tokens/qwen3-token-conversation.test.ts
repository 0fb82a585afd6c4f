import { beforeAll, describe, expect, it } from 'vitest';
import type { TemplateMessage, TemplateTool } from '../../src/tokens/template-messages.js';
import { TokenConversation } from '../../src/tokens/token-conversation.js';
import { loadTokenInModel, type TokenInModel } from '../../src/tokens/token-in-model.js';
import { QWEN3_FOLDER } from './qwen3-folder.js';

const IM_END = 151645;
const TOOLS: TemplateTool[] = [
  { type: 'function', function: { name: 'assign_task', description: 'Run a sub-agent on a prompt.', parameters: { type: 'object', properties: { agent: { type: 'string' }, prompt: { type: 'string' } }, required: ['agent', 'prompt'] } } },
];
const SYSTEM = 'You are the orchestrator.';
const USER = 'Which city is the capital of France?';

let model: TokenInModel;
beforeAll(async () => {
  model = await loadTokenInModel({ tokenizer: QWEN3_FOLDER, toolCallParser: 'hermes', reasoningParser: 'qwen3' });
});

const encode = (text: string): number[] => model.folder.tokenizer.encode(text);
const lp = (ids: readonly number[], base: number): number[] => ids.map((_, i) => base - i / 1000);

/** The index of the first token where `a` and `b` differ (their common length when one extends the other). */
function firstDifference(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

describe('token in with Qwen3\'s real tokenizer and template', () => {
  it('the first prompt is the template over system, user and tools with the generation prompt, tokenized', () => {
    const conv = new TokenConversation(model, SYSTEM, USER, TOOLS);
    expect(conv.prompt).toEqual(encode(model.folder.template.render([{ role: 'system', content: SYSTEM }, { role: 'user', content: USER }], TOOLS, true)));
    expect(conv.prompt.filter((t) => t === IM_END)).toHaveLength(2);
  });

  it('every prompt is the previous prompt + the completion + the bridge, and the fields are exact', () => {
    const conv = new TokenConversation(model, SYSTEM, USER, TOOLS);
    const prompt0 = [...conv.prompt];
    const c1 = [...encode('<think>\nOne look-up.\n</think>\n\n<tool_call>\n{"name":"assign_task","arguments":{"agent":"geo","prompt":"capital of France"}}\n</tool_call>'), IM_END];
    const turn = conv.sampled(c1, lp(c1, -0.1), true);
    expect(turn.reasoning).toBe('\nOne look-up.\n');
    expect(turn.calls).toEqual([{ id: 'call_0_0', name: 'assign_task', input: { agent: 'geo', prompt: 'capital of France' }, invalid: undefined, arguments: '{"agent":"geo","prompt":"capital of France"}' }]);
    const bridge = conv.added([{ role: 'tool', tool_call_id: 'call_0_0', name: 'assign_task', content: 'Paris' }]);
    expect(model.folder.tokenizer.decode(bridge)).toBe('\n<|im_start|>user\n<tool_response>\nParis\n</tool_response><|im_end|>\n<|im_start|>assistant\n');
    expect(conv.prompt).toEqual([...prompt0, ...c1, ...bridge]);
    const prompt1 = [...conv.prompt];
    const c2 = [...encode('<think>\nDone.\n</think>\n\nParis.'), IM_END];
    const final = conv.sampled(c2, lp(c2, -0.2), true);
    expect(final).toMatchObject({ calls: [], content: '\n\nParis.' });
    const f = conv.fields();
    expect(f.prompt_ids).toEqual(prompt0);
    expect(f.response_ids).toEqual([...c1, ...bridge, ...c2]);
    expect(f.response_mask).toEqual([...c1.map(() => 1), ...bridge.map(() => 0), ...c2.map(() => 1)]);
    expect(f.response_logprobs).toEqual([...lp(c1, -0.1), ...bridge.map(() => 0), ...lp(c2, -0.2)]);
    expect(f).not.toHaveProperty('retokenized_at');
    expect([...f.prompt_ids, ...f.response_ids]).toEqual([...prompt1, ...c2]);
  });

  it('a completion that is only the end token is an empty answer, not an error (the tokenizer is never asked to decode no ids)', () => {
    const conv = new TokenConversation(model, SYSTEM, USER, TOOLS);
    expect(model.folder.tokenizer.decode([])).toBe('');
    const turn = conv.sampled([IM_END], [-0.5], true);
    expect(turn).toMatchObject({ text: '', content: '', calls: [] });
    expect(conv.fields().response_ids).toEqual([IM_END]);
  });

  it('the bridge is what the template gives: a completion written as the template writes the turn decodes to the template\'s own rendering', () => {
    const conv = new TokenConversation(model, SYSTEM, USER, TOOLS);
    const args = { agent: 'geo', prompt: 'capital of France' };
    // Qwen3's template keeps the reasoning of turns after the last user message and writes JSON with ", " and ": ".
    const c1 = [...encode(`<think>\nOne look-up.\n</think>\n\n<tool_call>\n{"name": "assign_task", "arguments": ${JSON.stringify(args, null, 0).replace(/":/g, '": ').replace(/,"/g, ', "')}}\n</tool_call>`), IM_END];
    conv.sampled(c1, lp(c1, -0.1), true);
    const results: TemplateMessage[] = [{ role: 'tool', tool_call_id: 'call_0_0', name: 'assign_task', content: 'Paris' }];
    conv.added(results);
    const rendered = model.folder.template.render(
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: USER },
        { role: 'assistant', content: '', reasoning_content: 'One look-up.', tool_calls: [{ id: 'call_0_0', type: 'function', function: { name: 'assign_task', arguments: args } }] },
        ...results,
      ],
      TOOLS,
      true,
    );
    expect(model.folder.tokenizer.decode(conv.prompt)).toBe(rendered);
  });

  it('two tool results in one bridge, then a second call: each prompt still extends the last', () => {
    const conv = new TokenConversation(model, SYSTEM, USER, TOOLS);
    const prompts: number[][] = [[...conv.prompt]];
    const calls = '<tool_call>\n{"name":"assign_task","arguments":{"agent":"a","prompt":"x"}}\n</tool_call>\n<tool_call>\n{"name":"assign_task","arguments":{"agent":"b","prompt":"y"}}\n</tool_call>';
    for (const turnNo of [0, 1]) {
      const c = [...encode(`<think>\nturn ${turnNo}\n</think>\n\n${calls}`), IM_END];
      const turn = conv.sampled(c, lp(c, -0.3), true);
      expect(turn.calls).toHaveLength(2);
      const bridge = conv.added(turn.calls.map((call) => ({ role: 'tool' as const, tool_call_id: call.id, name: call.name, content: `result of ${call.id}` })));
      expect(model.folder.tokenizer.decode(bridge)).toBe(`\n<|im_start|>user\n<tool_response>\nresult of call_${turnNo}_0\n</tool_response>\n<tool_response>\nresult of call_${turnNo}_1\n</tool_response><|im_end|>\n<|im_start|>assistant\n`);
      const last = prompts.at(-1) ?? [];
      expect(conv.prompt).toEqual([...last, ...c, ...bridge]);
      prompts.push([...conv.prompt]);
    }
  });

  it('a completion cut off by max_tokens is closed by the bridge as the template closes the turn', () => {
    const conv = new TokenConversation(model, SYSTEM, USER, TOOLS);
    const c = encode('<tool_call>\n{"name":"assign_task","arguments":{"agent":"a","prompt":"x"}}\n</tool_call>');
    const turn = conv.sampled(c, lp(c, -0.1), false);
    const bridge = conv.added([{ role: 'tool', tool_call_id: turn.calls[0]?.id ?? '', name: 'assign_task', content: 'r' }]);
    expect(model.folder.tokenizer.decode(bridge).startsWith('<|im_end|>\n<|im_start|>user\n<tool_response>')).toBe(true);
  });

  it('chat mode would have drifted at call 1: re-rendering the conversation differs at the first completion token', () => {
    const conv = new TokenConversation(model, SYSTEM, USER, TOOLS);
    const prompt0 = [...conv.prompt];
    const c1 = [...encode('<think>\nOne look-up.\n</think>\n\n<tool_call>\n{"name":"assign_task","arguments":{"agent":"geo","prompt":"capital of France"}}\n</tool_call>'), IM_END];
    const turn = conv.sampled(c1, lp(c1, -0.1), true);
    const results: TemplateMessage[] = [{ role: 'tool', tool_call_id: 'call_0_0', name: 'assign_task', content: 'Paris' }];
    conv.added(results);
    const call = { id: 'call_0_0', type: 'function' as const, function: { name: 'assign_task', arguments: turn.calls[0]?.input as Record<string, unknown> } };
    // What a chat endpoint renders at call 1: the reply as a chat message (reasoning not sent back)…
    const chat = encode(model.folder.template.render([{ role: 'system', content: SYSTEM }, { role: 'user', content: USER }, { role: 'assistant', content: '', tool_calls: [call] }, ...results], TOOLS, true));
    expect(firstDifference(chat, [...prompt0, ...c1])).toBe(prompt0.length);
    // …and even with the reasoning sent back, inside the tool-call JSON.
    const withReasoning = encode(model.folder.template.render([{ role: 'system', content: SYSTEM }, { role: 'user', content: USER }, { role: 'assistant', content: '', reasoning_content: turn.reasoning ?? '', tool_calls: [call] }, ...results], TOOLS, true));
    const at = firstDifference(withReasoning, [...prompt0, ...c1]);
    expect(at).toBeGreaterThan(prompt0.length);
    expect(model.folder.tokenizer.decode(c1.slice(0, at - prompt0.length))).toMatch(/<tool_call>\n\{"name$/);
    expect(model.folder.tokenizer.decode(withReasoning.slice(at)).startsWith('": "assign_task"')).toBe(true);
    // Token in's prompt extends the last by construction.
    expect(conv.prompt.slice(0, prompt0.length + c1.length)).toEqual([...prompt0, ...c1]);
  });
});
