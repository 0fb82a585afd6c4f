import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ParlInputError } from '@parl/core';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplateMessage } from '../../src/tokens/template-messages.js';
import { TokenConversation } from '../../src/tokens/token-conversation.js';
import { loadTokenInModel, type TokenInModel } from '../../src/tokens/token-in-model.js';
import { KIMI_MERGES, KIMI_SPECIALS, writeKimiFolder } from './kimi-folder.js';

let dir: TempDir;
let model: TokenInModel;
beforeAll(async () => {
  dir = await makeTempDir('kimi-folder');
  await writeKimiFolder(dir.path);
  model = await loadTokenInModel({ tokenizer: dir.path, toolCallParser: 'kimi_k2', reasoningParser: 'none' });
});
afterAll(() => dir.remove());

describe('a model folder in Kimi\'s layout (tiktoken.model + tokenizer_config.json + chat_template.jinja)', () => {
  it('loads through js-tiktoken: special tokens as their single ids, merges applied, Han pieces split as Kimi splits them', () => {
    const { tokenizer } = model.folder;
    expect(tokenizer.kind).toBe('tiktoken.model');
    expect(tokenizer.encode('<|im_end|>')).toEqual([KIMI_SPECIALS['<|im_end|>']]);
    const merge = (m: string): number => 256 + KIMI_MERGES.indexOf(m);
    expect(tokenizer.encode('hello world')).toEqual([merge('hello'), merge(' world')]);
    expect(tokenizer.encode('中文hello')).toEqual([merge('中文'), merge('hello')]);
    expect(tokenizer.encode('go中文')).toEqual([...Buffer.from('go')].concat(merge('中文')));
    const text = '<|im_user|>user<|im_middle|>hello 中文 world\n<|im_end|>';
    expect(tokenizer.decode(tokenizer.encode(text))).toBe(text);
  });

  it('its kimi_k2 tool calls parse, and the bridge is what its template gives', () => {
    const { tokenizer, template } = model.folder;
    const tools = [{ type: 'function' as const, function: { name: 'assign_task', description: 'Run a sub-agent.', parameters: { type: 'object' } } }];
    const conv = new TokenConversation(model, 'S', 'hello', tools);
    const prompt0 = [...conv.prompt];
    expect(tokenizer.decode(prompt0)).toMatch(/^<\|im_system\|>tool_declare<\|im_middle\|>\[\{"type": "function", "function": \{"name": "assign_task".*<\|im_end\|><\|im_system\|>system<\|im_middle\|>S<\|im_end\|><\|im_user\|>user<\|im_middle\|>hello<\|im_end\|><\|im_assistant\|>assistant<\|im_middle\|>$/);
    const sampled = 'Two look-ups.<|tool_calls_section_begin|><|tool_call_begin|>functions.assign_task:0<|tool_call_argument_begin|>{"agent":"a","prompt":"x"}<|tool_call_end|><|tool_call_begin|>functions.assign_task:1<|tool_call_argument_begin|>{"agent":"b","prompt":"y"}<|tool_call_end|><|tool_calls_section_end|>';
    const c1 = [...tokenizer.encode(sampled), KIMI_SPECIALS['<|im_end|>']];
    const turn = conv.sampled(c1, c1.map(() => -1), true);
    expect(turn.content).toBe('Two look-ups.');
    expect(turn.calls.map((c) => [c.id, c.name, c.input])).toEqual([
      ['functions.assign_task:0', 'assign_task', { agent: 'a', prompt: 'x' }],
      ['functions.assign_task:1', 'assign_task', { agent: 'b', prompt: 'y' }],
    ]);
    const results: TemplateMessage[] = turn.calls.map((c, i) => ({ role: 'tool', tool_call_id: c.id, name: c.name, content: `r${i}` }));
    const bridge = conv.added(results);
    expect(tokenizer.decode(bridge)).toBe('<|im_system|>tool<|im_middle|>## Return of functions.assign_task:0\nr0<|im_end|><|im_system|>tool<|im_middle|>## Return of functions.assign_task:1\nr1<|im_end|><|im_assistant|>assistant<|im_middle|>');
    expect(conv.prompt).toEqual([...prompt0, ...c1, ...bridge]);
    const rendered = template.render(
      [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'Two look-ups.', tool_calls: turn.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) },
        ...results,
      ],
      tools,
      true,
    );
    expect(tokenizer.decode(conv.prompt)).toBe(rendered);
  });

  it('a tiktoken.model line that is not BASE64 RANK is an input error naming the line', async () => {
    const bad = await makeTempDir('kimi-bad');
    try {
      await writeKimiFolder(bad.path);
      await writeFile(join(bad.path, 'tiktoken.model'), 'aGVsbG8= 0\nnot a rank line\n');
      const err = await loadTokenInModel({ tokenizer: bad.path, toolCallParser: 'kimi_k2', reasoningParser: 'none' }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(ParlInputError);
      expect((err as ParlInputError).location).toMatch(/tiktoken\.model line 2$/);
    } finally {
      await bad.remove();
    }
  });
});
