import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TURN_END_ID } from '../src/local-llm/byte-vocabulary.js';
import { startLocalLlmServer, type GenerationEvent, type LocalLlmServer } from '../src/local-llm/server.js';
import { writeTinyGguf } from '../src/local-llm/tiny-model.js';
import { makeTempDir, type TempDir } from '../src/temp-dir.js';

const lookupArgs = z.object({ city: z.string(), days: z.number().int(), units: z.enum(['metric', 'imperial']) }).strict();
const noteArgs = z.object({ text: z.string(), tags: z.array(z.string()).max(3) }).strict();
const tools = [
  { type: 'function', function: { name: 'lookup', description: 'Weather for a city', parameters: z.toJSONSchema(lookupArgs) } },
  { type: 'function', function: { name: 'note', description: 'Save a note', parameters: z.toJSONSchema(noteArgs) } },
];
/** 18 strings of 100 characters: a generation of over 1,800 tokens, to abort midway. */
const longList = {
  type: 'json_schema',
  json_schema: { name: 'long', schema: { type: 'array', items: { type: 'string', minLength: 100, maxLength: 100 }, minItems: 18, maxItems: 18 } },
};
const argsOf: Record<string, z.ZodType> = { lookup: lookupArgs, note: noteArgs };
/** A structured answer of at least `chars` characters: a generation long enough for two to meet. */
function atLeast(chars: number) {
  return { type: 'json_schema', json_schema: { name: 'long', schema: { type: 'string', minLength: chars, maxLength: chars } } };
}

let dir: TempDir;
let server: LocalLlmServer;
const events: GenerationEvent[] = [];
let started = 0;

async function post(body: unknown, signal?: AbortSignal): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  return { status: response.status, json: await response.json() };
}

beforeAll(async () => {
  dir = await makeTempDir('local-llm');
  const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
  server = await startLocalLlmServer({
    modelPath: model.path,
    concurrency: 2,
    onGenerationStart: () => started++,
    onGeneration: (e) => events.push(e),
  });
});
afterAll(async () => {
  await server?.close();
  await dir.remove();
});

describe('startLocalLlmServer', () => {
  it('lists its model', async () => {
    const response = await fetch(`${server.baseURL}/models`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ object: 'list', data: [{ id: 'tiny', object: 'model' }] });
  });

  it('answers a chat completion with text and usage', async () => {
    const { status, json } = await post({
      model: 'tiny',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say something.' },
      ],
      max_tokens: 64,
      seed: 3,
    });
    expect(status).toBe(200);
    expect(json.object).toBe('chat.completion');
    const choice = json.choices[0];
    expect(choice.message.role).toBe('assistant');
    expect(typeof choice.message.content).toBe('string');
    expect(['stop', 'length']).toContain(choice.finish_reason);
    expect(json.usage.prompt_tokens).toBeGreaterThan('Say something.'.length);
    expect(json.usage.completion_tokens).toBeGreaterThan(0);
    expect(json.usage.completion_tokens).toBeLessThanOrEqual(64);
    expect(json.usage.total_tokens).toBe(json.usage.prompt_tokens + json.usage.completion_tokens);
  });

  it('with return_token_ids, answers the token ids, one per byte of the answer', async () => {
    const { json } = await post({ messages: [{ role: 'user', content: 'Ids.' }], max_tokens: 40, seed: 8, return_token_ids: true });
    const choice = json.choices[0];
    expect(choice.token_ids).toHaveLength(json.usage.completion_tokens);
    expect(json.prompt_token_ids).toHaveLength(json.usage.prompt_tokens);
    const bytes = (choice.token_ids as number[]).filter((id) => id < 256);
    expect(Buffer.from(bytes).toString('utf8')).toBe(choice.message.content);
  });

  it('with logprobs, gives each answer token a log-probability under the model, with its most likely alternatives', async () => {
    const { json } = await post({ messages: [{ role: 'user', content: 'Probabilities.' }], max_tokens: 30, seed: 8, logprobs: true, top_logprobs: 3, return_token_ids: true });
    const choice = json.choices[0];
    const content = choice.logprobs.content as { token: string; logprob: number; bytes: number[]; top_logprobs: { logprob: number }[] }[];
    expect(content).toHaveLength(choice.token_ids.length);
    const textBytes = content.filter((_, i) => choice.token_ids[i] < 256).flatMap((entry) => entry.bytes);
    expect(Buffer.from(textBytes).toString('utf8')).toBe(choice.message.content);
    for (const entry of content) {
      expect(entry.logprob).toBeLessThanOrEqual(0);
      expect(entry.top_logprobs).toHaveLength(3);
      const tops = entry.top_logprobs.map((t) => t.logprob);
      expect([...tops].sort((a, b) => b - a)).toEqual(tops);
      expect(entry.logprob).toBeLessThanOrEqual(tops[0]!);
      // a distribution: the three most likely cannot hold more than all of it
      expect(tops.reduce((sum, lp) => sum + Math.exp(lp), 0)).toBeLessThanOrEqual(1 + 1e-6);
    }
    // sampled at temperature 1, the tokens are not all the least likely: their mean log-probability beats uniform's
    const mean = content.reduce((sum, entry) => sum + entry.logprob, 0) / content.length;
    expect(mean).toBeGreaterThan(Math.log(1 / 259));
  });

  it('answers the same seed with the same text', async () => {
    const body = { messages: [{ role: 'user', content: 'Again.' }], max_tokens: 32, seed: 11, temperature: 0.8 };
    const [a, b] = [await post(body), await post(body)];
    expect(a.json.choices[0].message.content).toBe(b.json.choices[0].message.content);
  });

  it('with tool_choice "required", answers calls of the given tools with arguments that match their schemas', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const { status, json } = await post({
        messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
        tools,
        tool_choice: 'required',
        seed,
      });
      expect(status).toBe(200);
      const choice = json.choices[0];
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.content).toBeNull();
      expect(choice.message.tool_calls.length).toBeGreaterThanOrEqual(1);
      expect(choice.message.tool_calls.length).toBeLessThanOrEqual(4);
      for (const call of choice.message.tool_calls) {
        expect(call.type).toBe('function');
        expect(call.id).toMatch(/^call_/);
        const schema = argsOf[call.function.name];
        expect(schema, `unknown tool ${call.function.name}`).toBeDefined();
        expect(schema!.safeParse(JSON.parse(call.function.arguments)).success).toBe(true);
      }
    }
  });

  it('with a named tool_choice and parallel_tool_calls false, makes exactly one call of that tool', async () => {
    const { json } = await post({
      messages: [{ role: 'user', content: 'Note this.' }],
      tools,
      tool_choice: { type: 'function', function: { name: 'note' } },
      parallel_tool_calls: false,
      seed: 9,
    });
    const calls = json.choices[0].message.tool_calls;
    expect(calls).toHaveLength(1);
    expect(calls[0].function.name).toBe('note');
    expect(noteArgs.safeParse(JSON.parse(calls[0].function.arguments)).success).toBe(true);
  });

  it('with tool_choice "auto", answers either text or valid calls, and reads back its own earlier calls', async () => {
    const kinds = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const { status, json } = await post({
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"city":"Oslo","days":1,"units":"metric"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'cold' },
        ],
        tools,
        seed,
      });
      expect(status).toBe(200);
      const message = json.choices[0].message;
      if (message.tool_calls) {
        kinds.add('calls');
        for (const call of message.tool_calls) expect(argsOf[call.function.name]!.safeParse(JSON.parse(call.function.arguments)).success).toBe(true);
      } else {
        kinds.add('text');
        expect(typeof message.content).toBe('string');
      }
    }
  });

  it('decodes two requests at once: their generation intervals overlap', async () => {
    events.length = 0;
    const body = { messages: [{ role: 'user', content: 'Go on.' }], response_format: atLeast(200), seed: 1 };
    const [a, b] = await Promise.all([post(body), post({ ...body, seed: 2 })]);
    for (const { json } of [a, b]) {
      expect(json.usage.completion_tokens).toBeGreaterThanOrEqual(202);
      expect(JSON.parse(json.choices[0].message.content)).toHaveLength(200);
    }
    expect(events).toHaveLength(2);
    const [first, second] = events as [GenerationEvent, GenerationEvent];
    expect(first.startedAt).toBeLessThan(second.endedAt);
    expect(second.startedAt).toBeLessThan(first.endedAt);
  });

  it('aborts the generation when the client goes away', async () => {
    events.length = 0;
    const client = new AbortController();
    const pending = post({ messages: [{ role: 'user', content: 'Long.' }], max_tokens: 1900, response_format: longList }, client.signal);
    const before = started;
    for (let i = 0; i < 200 && started === before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    client.abort();
    const outcome = await pending.catch((e: unknown) => e);
    expect(outcome, JSON.stringify(outcome)).toBeInstanceOf(Error);
    for (let i = 0; i < 100 && events.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events.map((e) => e.outcome)).toEqual(['aborted']);
  });

  it.each([
    [{ messages: [] as unknown[] }, 'messages: got [], expected a non-empty array of messages'],
    [{ messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role: got "robot", expected one of system, user, assistant, tool'],
    [{ messages: [{ role: 'user', content: 'x' }], temperature: 'hot' }, 'temperature: got "hot", expected a number from 0 to 2'],
    [{ messages: [{ role: 'user', content: 'x' }], stream: true }, 'stream: got true, expected false'],
    [{ messages: [{ role: 'user', content: 'x' }], model: 'gpt-4' }, 'model: got "gpt-4", expected "tiny"'],
    [{ messages: [{ role: 'user', content: 'x' }], tools, tool_choice: { type: 'function', function: { name: 'fly' } } }, 'tool_choice.function.name: got "fly"'],
    [
      { messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { s: { type: 'string', pattern: '^a' } } } } }] },
      'tools[0].function.parameters.properties.s.pattern: got "^a", expected only keywords the grammar enforces',
    ],
    [{ messages: [{ role: 'user', content: 'x' }], max_tokens: 5000 }, 'max_tokens: got 5000, expected at most'],
    [{ messages: [{ role: 'user', content: 'x' }], logit_bias: { [TURN_END_ID]: -100 } }, `logit_bias.${TURN_END_ID}: got ${TURN_END_ID}, expected a token that does not end`],
    [{ messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_object' } }, 'response_format.type: got "json_object", expected "text" or "json_schema"'],
    [{ messages: [{ role: 'user', content: 'x' }], response_format: atLeast(1500) }, 'response_format.json_schema.schema: got "Failed to parse grammar"'],
    [{ messages: [{ role: 'user', content: 'x' }], top_logprobs: 3 }, 'top_logprobs: got 3, expected absent unless logprobs is true'],
    [{ messages: [{ role: 'user', content: 'x' }], top_k: 3 }, 'top_k: got 3, expected no such field here'],
  ])('answers a bad request with 400 naming the field (%#)', async (body, message) => {
    const { status, json } = await post(body);
    expect(status).toBe(400);
    expect(json.error.type).toBe('invalid_request_error');
    expect(json.error.message).toContain(message);
  });

  it('answers a body that is not JSON with 400', async () => {
    const response = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages": [' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/JSON/);
  });
});

describe('startLocalLlmServer: /v1/completions on token ids (token in)', () => {
  async function complete(body: unknown): Promise<{ status: number; json: any }> {
    const response = await fetch(`${server.baseURL}/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, json: await response.json() };
  }
  const prompt = [257, ...Buffer.from('user\nName a color.'), 258, 10, 257, ...Buffer.from('assistant\n')];

  it('generates from the prompt ids and answers token_ids with their log-probabilities, as vLLM answers return_token_ids', async () => {
    const { status, json } = await complete({ model: server.modelName, prompt, max_tokens: 40, logprobs: 1, return_token_ids: true, seed: 3 });
    expect(status).toBe(200);
    const choice = json.choices[0];
    expect(choice.token_ids.length).toBeGreaterThan(0);
    expect(choice.token_ids.length).toBeLessThanOrEqual(41);
    expect(choice.logprobs.token_logprobs).toHaveLength(choice.token_ids.length);
    for (const lp of choice.logprobs.token_logprobs) expect(lp).toBeLessThanOrEqual(0);
    expect(['stop', 'length']).toContain(choice.finish_reason);
    if (choice.finish_reason === 'stop') expect(choice.token_ids.at(-1)).toBe(TURN_END_ID);
    expect(json.usage).toEqual({ prompt_tokens: prompt.length, completion_tokens: choice.token_ids.length, total_tokens: prompt.length + choice.token_ids.length });
  });

  it('refuses a text prompt, an id outside the vocabulary, and max_tokens past the context with 400 naming the field', async () => {
    for (const [body, field] of [
      [{ prompt: 'hello', max_tokens: 4 }, 'prompt'],
      [{ prompt: [1, 99999], max_tokens: 4 }, 'prompt[1]'],
      [{ prompt, max_tokens: 100000 }, 'max_tokens'],
    ] as const) {
      const { status, json } = await complete(body);
      expect(status).toBe(400);
      expect(json.error.param).toBe(field);
    }
  });
});

describe('startLocalLlmServer on a model written with a longer context', () => {
  it('takes a prompt longer than the default 2048 tokens and answers it', async () => {
    const model = await writeTinyGguf(join(dir.path, 'long.gguf'), { contextLength: 8192 });
    const long = await startLocalLlmServer({ modelPath: model.path, concurrency: 1 });
    try {
      const content = 'a long orchestrator prompt. '.repeat(200);
      const response = await fetch(`${long.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content }], max_tokens: 16 }),
      });
      expect(response.status).toBe(200);
      const json = (await response.json()) as { usage: { prompt_tokens: number } };
      expect(json.usage.prompt_tokens).toBeGreaterThan(content.length);
    } finally {
      await long.close();
    }
  });

  it('close() ends a running generation and resolves', async () => {
    const model = await writeTinyGguf(join(dir.path, 'closing.gguf'));
    let begun = false;
    const closing = await startLocalLlmServer({ modelPath: model.path, concurrency: 1, onGenerationStart: () => (begun = true) });
    const pending = fetch(`${closing.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Long.' }], max_tokens: 1900, response_format: longList }),
    });
    for (let i = 0; i < 200 && !begun; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await closing.close();
    const response = await pending;
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('generation aborted');
  });

  it('refuses an option out of range before loading anything', async () => {
    await expect(startLocalLlmServer({ modelPath: join(dir.path, 'tiny.gguf'), concurrency: 0 })).rejects.toThrow(
      'concurrency: got 0, expected an integer from 1 to 64',
    );
  });

  it('refuses a context length out of range before writing anything', async () => {
    await expect(writeTinyGguf(join(dir.path, 'huge.gguf'), { contextLength: 100_000 })).rejects.toThrow(
      'contextLength: got 100000, expected an integer from 256 to 32768',
    );
  });
});

describe('startLocalLlmServer with one sequence and a queue of one', () => {
  let single: LocalLlmServer;
  const singleEvents: GenerationEvent[] = [];
  beforeAll(async () => {
    const model = await writeTinyGguf(join(dir.path, 'single.gguf'));
    single = await startLocalLlmServer({ modelPath: model.path, concurrency: 1, maxQueued: 1, onGeneration: (e) => singleEvents.push(e) });
  });
  afterAll(async () => {
    await single?.close();
  });

  it('runs one generation at a time, queues one request and refuses the next with 503', async () => {
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'Go.' }], response_format: atLeast(400) });
    const send = () => fetch(`${single.baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const first = send();
    const second = send();
    const third = send();
    const responses = await Promise.all([first, second, third]);
    // which of the three comes last to the queue is up to the machine: exactly one is refused
    const refused = responses.filter((r) => r.status === 503);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 503]);
    expect(((await refused[0]!.json()) as { error: { message: string } }).error.message).toContain('server busy');
    expect(singleEvents).toHaveLength(2);
    const [a, b] = singleEvents as [GenerationEvent, GenerationEvent];
    expect(b.startedAt).toBeGreaterThanOrEqual(a.endedAt);
  });
});
