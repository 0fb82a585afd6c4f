/**
 * The endpoint's token ids as a trainer reads them (vLLM's `return_token_ids`): over a
 * conversation with tools, each request's prompt ids begin with the previous request's prompt and
 * completion ids, because the model writes its JSON the way the chat template renders it back.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactJsonGbnf } from '../src/local-llm/compact-json-grammar.js';
import { startLocalLlmServer, type LocalLlmServer } from '../src/local-llm/server.js';
import { writeTinyGguf } from '../src/local-llm/tiny-model.js';
import { makeTempDir, type TempDir } from '../src/temp-dir.js';

let dir: TempDir;
let server: LocalLlmServer;

beforeAll(async () => {
  dir = await makeTempDir('prompt-extension');
  const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
  server = await startLocalLlmServer({ modelPath: model.path, concurrency: 1 });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await dir?.remove();
});

const tools = [
  { type: 'function', function: { name: 'search', description: 'Find documents', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false } } },
  { type: 'function', function: { name: 'open', description: 'Open one', parameters: { type: 'object', properties: { id: { type: 'string', maxLength: 12 } }, required: ['id'], additionalProperties: false } } },
];

describe('prompt and completion token ids over a conversation', () => {
  it('every prompt begins with the previous prompt and completion, whatever the seed', async () => {
    for (const seed of [1, 2, 3]) {
      const messages: unknown[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Find cats.' }];
      let previous: number[] | undefined;
      for (let k = 0; k < 4; k++) {
        const res = await fetch(`${server.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: server.modelName, messages, tools, return_token_ids: true, logprobs: true, seed: seed * 10 + k, max_tokens: 200 }),
        });
        const body = (await res.json()) as { prompt_token_ids: number[]; choices: { token_ids: number[]; finish_reason: string; message: { content: string | null; tool_calls?: { id: string }[] }; logprobs: { content: unknown[] } }[] };
        const choice = body.choices[0] as (typeof body.choices)[0];
        expect(choice.logprobs.content).toHaveLength(choice.token_ids.length);
        if (previous !== undefined) expect(body.prompt_token_ids.slice(0, previous.length), `seed ${seed}, request ${k}`).toEqual(previous);
        if (choice.finish_reason === 'length') break;
        previous = [...body.prompt_token_ids, ...choice.token_ids];
        messages.push(choice.message);
        for (const call of choice.message.tool_calls ?? []) messages.push({ role: 'tool', tool_call_id: call.id, content: 'doc-1: a cat' });
        if (choice.message.tool_calls === undefined) messages.push({ role: 'user', content: 'More.' });
      }
    }
  }, 120_000);

  it('the grammar rewrite refuses a grammar it does not know rather than pass it on half-done', () => {
    expect(() => compactJsonGbnf('root ::= x\nstring-char-rule ::= [^"]')).toThrow(/unexpected string rule/);
    expect(() => compactJsonGbnf('root ::= x\nrule0 ::= "{" [\\n] "}"')).toThrow(/whitespace left/);
  });
});
