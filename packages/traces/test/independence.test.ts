/**
 * Independence from content: the verdict depends on what the agents exchanged, never on the
 * framework's envelope, and the check's work is linear in the content.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentText, independenceOf } from '../src/index.js';
import { independenceWork } from '../src/independence.js';
import { collect } from './support/collect.js';
import { otlpLine, type HandSpan } from './support/hand-spans.js';

/** One way a framework captures a message's text (what its reader hands to `contentText`). */
type Envelope = (text: string, role: 'user' | 'assistant' | 'tool', seq: number) => unknown;

const lcClass = { user: 'HumanMessage', assistant: 'AIMessage', tool: 'ToolMessage' } as const;

/** Every supported framework's capture of one message, as its spans or runs hold it. */
const ENVELOPES: Readonly<Record<string, Envelope>> = {
  plain: (text) => text,
  // LangSmith run inputs/outputs: LangChain's serialised constructor objects.
  langsmith: (text, role, seq) => ({
    messages: [
      [
        {
          lc: 1,
          type: 'constructor',
          id: ['langchain_core', 'messages', lcClass[role]],
          kwargs: { content: text, additional_kwargs: {}, response_metadata: { model_name: 'fake-model', finish_reason: 'stop' }, id: `run-${seq}-0000-1111-2222`, tool_call_id: `call_${seq}` },
        },
      ],
    ],
  }),
  // OpenInference `input.value` / `output.value`: the same, as a JSON string attribute.
  openinference: (text, role, seq) =>
    JSON.stringify({ messages: [{ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', lcClass[role]], kwargs: { content: text, id: `msg-${seq}` } }] }),
  // GenAI semantic conventions: `gen_ai.input.messages` as a JSON string of role/parts messages.
  genai: (text, role) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]),
  // AI SDK legacy `ai.prompt`: a JSON string with role-wrapped content parts.
  'ai-sdk': (text, role) => JSON.stringify({ messages: [{ role, content: [{ type: 'text', text }] }] }),
  // OpenAI Agents: response input items.
  'openai-agents': (text, role, seq) => [{ type: 'message', role, id: `msg_${seq}`, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] }],
  // Mastra: an agent span's input messages.
  mastra: (text, role, seq) => ({ messages: [{ id: `m${seq}`, role, content: { format: 2, parts: [{ type: 'text', text }] }, createdAt: '2026-01-01T00:00:00.000Z' }] }),
  // A tool call's arguments and result (agents as tools).
  tool: (text, _role, seq) => ({ toolCallId: `call-${seq}`, toolName: 'ask_worker', args: { task: text } }),
};
const ENVELOPE_NAMES = Object.keys(ENVELOPES);

/** Distinct words (no word of one text occurs in another), so that unrelated texts never quote each other by chance. */
const textArb = (tag: string) =>
  fc.array(fc.stringMatching(/^[a-z]{3,8}$/), { minLength: 4, maxLength: 12 }).map((words) => words.map((w) => `${tag}${w}`).join(' '));

/** A unit's content: `task` in, `answer` out, each in an envelope. */
function unit(task: string, answer: string, envelope: string, seq: number) {
  const wrap = ENVELOPES[envelope] as Envelope;
  return { input: contentText(wrap(task, 'user', seq)), output: contentText(wrap(answer, 'assistant', seq + 100)) };
}

describe('the text agents exchanged, not the envelope', () => {
  it('takes the content out of a LangChain constructor object', () => {
    expect(contentText(ENVELOPES['langsmith']?.('Find the capital of Peru', 'user', 1))).toBe('Find the capital of Peru');
    expect(contentText(ENVELOPES['openinference']?.('Find the capital of Peru', 'user', 1))).toBe('Find the capital of Peru');
  });

  it('gives the same verdict for the same contents in any envelope (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(textArb('q'), textArb('a')), { minLength: 2, maxLength: 5 }),
        fc.array(fc.constantFrom(...ENVELOPE_NAMES), { minLength: 5, maxLength: 5 }),
        (pairs, envelopes) => {
          // Unrelated tasks and answers, every unit in its own framework's envelope: likely independent,
          // whatever the envelopes share (they share a lot: `lc`, `constructor`, `langchain_core`, roles…).
          // Each unit's words tagged with its index: no two units share a word.
          const own = (text: string, j: number) => text.replace(/\b(\w)/g, `${j}$1`);
          const units = pairs.map(([task, answer], j) => unit(own(task, j), own(answer, j), envelopes[j % envelopes.length] as string, j));
          expect(independenceOf(units)).toBe('likely');
          const plain = pairs.map(([task, answer], j) => unit(own(task, j), own(answer, j), 'plain', j));
          expect(independenceOf(units)).toBe(independenceOf(plain));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds a later input that really quotes an earlier output, in any envelope (property)', () => {
    fc.assert(
      fc.property(
        textArb('q'),
        textArb('a'),
        textArb('r'),
        fc.constantFrom(...ENVELOPE_NAMES),
        fc.constantFrom(...ENVELOPE_NAMES),
        (task, answer, rest, first, second) => {
          const units = [unit(task, answer, first, 1), unit(`Use this report: ${answer}. Then ${rest}`, rest, second, 2)];
          expect(independenceOf(units)).toBe('dependent');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never counts ids, roles or types, even long identical ones', () => {
    const a = { role: 'assistant', id: 'chatcmpl-0123456789abcdefghijklmnopqrstuvwxyz', type: 'message_with_a_very_long_type_name', content: 'the weather in lima is mild' };
    const b = { role: 'assistant', id: 'chatcmpl-0123456789abcdefghijklmnopqrstuvwxyz', type: 'message_with_a_very_long_type_name', content: 'peru exports copper and gold' };
    expect(independenceOf([{ input: 'x', output: contentText(a) }, { input: contentText(b), output: 'y' }])).toBe('likely');
  });
});

describe('independence work is linear in the content', () => {
  /** n units whose inputs and outputs are `chars` characters of unrelated words each. */
  function units(n: number, chars: number) {
    const words = (tag: string) => {
      let s = '';
      for (let k = 0; s.length < chars; k++) s += `${tag}w${k} `;
      return s;
    };
    return Array.from({ length: n }, (_, j) => ({ input: words(`in${j}x`), output: words(`out${j}x`) }));
  }

  it('a large trace (400 sub-agents × 4 KiB each way, 3.2 MB of content, the size that took 40 s) takes lookups linear in its characters', () => {
    const big = units(400, 4096);
    const chars = big.reduce((c, u) => c + u.input.length + u.output.length, 0);
    const work = independenceWork(big);
    expect(work.independence).toBe('likely');
    // The stated bound: at most 13 lookups per character and one indexed piece per 12 characters (+ 1 per unit).
    expect(work.lookups).toBeLessThanOrEqual(13 * chars);
    expect(work.indexed).toBeLessThanOrEqual(chars / 12 + big.length);
    // Pairwise comparison made 400 × 399 / 2 ≈ 80,000 comparisons of 4 KiB each; doubling the units doubles the work now.
    const half = independenceWork(units(200, 4096));
    expect(work.lookups / half.lookups).toBeLessThan(2.2);
  });

  it('stops at the first quote', () => {
    const u = units(200, 1024);
    u[1] = { input: `please use ${u[0]?.output}`, output: 'done with it all right now' };
    const work = independenceWork(u);
    expect(work.independence).toBe('dependent');
    expect(work.lookups).toBeLessThan(2 * 1024 * 13);
  });
});

describe('a large LangGraph-style trace end to end', () => {
  it('400 sub-agents one per turn, each input carrying the whole history in LangChain envelopes: serial collapse flagged', async () => {
    // Each turn's sub-agent input is the supervisor's message history (LangGraph passes it on),
    // serialised as LangChain constructor objects: the envelopes repeat in every message; the
    // contents do not. About 2 MB of JSON.
    const spans: HandSpan[] = [{ id: 'root', op: 'invoke_agent', agent: 'supervisor', start: 0, end: 10_000_000 }];
    const message = (cls: string, content: string, k: number) => ({ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', cls], kwargs: { content, id: `run-${k}-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9`, additional_kwargs: {}, response_metadata: {} } });
    const history: unknown[] = [];
    for (let k = 0; k < 400; k++) {
      const t = k * 1000;
      spans.push({ id: `m${k}`, parent: 'root', op: 'chat', start: t, end: t + 10 });
      const task = `look up item ${k} of the catalogue, sku ${k * 7919}`;
      const input = JSON.stringify({ messages: [...history.slice(-20), message('HumanMessage', task, k)] });
      const answer = `item ${k} weighs ${k * 13} grams and ships from warehouse w${k % 17}`;
      spans.push({
        id: `w${k}`,
        parent: 'root',
        op: 'invoke_agent',
        agent: `worker${k}`,
        start: t + 20,
        end: t + 900,
        extraAttributes: [
          { key: 'input.value', value: { stringValue: input } },
          { key: 'output.value', value: { stringValue: JSON.stringify({ messages: [message('AIMessage', answer, k)] }) } },
        ],
      });
      spans.push({ id: `w${k}l`, parent: `w${k}`, op: 'chat', start: t + 30, end: t + 800 });
      history.push(message('ToolMessage', `worker ${k} is done`, k));
    }
    spans.push({ id: 'mEnd', parent: 'root', op: 'chat', start: 9_000_000, end: 9_000_010 });
    const { results } = await collect([otlpLine(spans)]);
    const f = results[0]?.finding;
    expect(f?.patterns.map((p) => [p.kind, p.turns.length, p.independence])).toEqual([['one_per_turn', 400, 'likely']]);
    expect(f?.serial_collapse).toBe(true);
    expect([f?.critical_steps_as_run, f?.critical_steps_if_parallel]).toEqual([401 + 400, 1 + 1 + 1]);
  });
});
