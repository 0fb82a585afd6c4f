/**
 * Scripted agent runs on the real OpenAI Agents JS SDK (@openai/agents-core): a scripted Model
 * (no network) that opens a generation span per call, as the SDK's own model implementations do,
 * and a TracingProcessor that captures the SDK's trace export items (`trace.toJSON()`,
 * `span.toJSON()`) in the order its exporter would send them.
 */
import {
  Agent,
  Runner,
  run,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  Usage,
  withGenerationSpan,
  type AgentOutputItem,
  type Model,
  type ModelResponse,
  type TracingProcessor,
} from '@openai/agents-core';
import { z } from 'zod';

const captured: unknown[] = [];
const processor: TracingProcessor = {
  async onTraceStart(trace) {
    captured.push(trace.toJSON());
  },
  async onTraceEnd() {},
  async onSpanStart() {},
  async onSpanEnd(span) {
    captured.push(span.toJSON());
  },
  async shutdown() {},
  async forceFlush() {},
};
setTracingDisabled(false);
setTraceProcessors([processor]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A model that answers from a script, one entry per call (the last repeats), after `delayMs`. */
export function scriptedModel(turns: readonly (AgentOutputItem[] | Error)[], delayMs: number): Model {
  let i = 0;
  return {
    async getResponse(): Promise<ModelResponse> {
      return withGenerationSpan(async () => {
        await sleep(delayMs);
        const out = turns[Math.min(i++, turns.length - 1)] as AgentOutputItem[] | Error;
        if (out instanceof Error) throw out;
        return { usage: new Usage(), output: out, responseId: `resp_${i}` };
      });
    },
    // eslint-disable-next-line require-yield
    async *getStreamedResponse() {
      throw new Error('the scripted model does not stream');
    },
  };
}

/** An assistant message output item. */
export function message(text: string): AgentOutputItem {
  return { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
}

/** A function call output item. */
export function functionCall(name: string, callId: string, args: Record<string, unknown>): AgentOutputItem {
  return { type: 'function_call', callId, name, arguments: JSON.stringify(args), status: 'completed' };
}

/** A sub-agent that makes `llmCalls` model calls (calling a `lookup` tool in between) and answers. */
export function subAgent(name: string, llmCalls: number, delayMs: number, fails = false): Agent {
  const lookup = tool({ name: 'lookup', description: 'look something up', parameters: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` });
  const script: (AgentOutputItem[] | Error)[] = [];
  for (let i = 0; i < llmCalls - 1; i++) script.push([functionCall('lookup', `${name}_c${i}`, { q: `${name} ${i}` })]);
  script.push(fails ? new Error(`${name} model failed`) : [message(`${name} done`)]);
  return new Agent({ name, instructions: `You are ${name}.`, tools: [lookup], model: scriptedModel(script, delayMs) });
}

/** Run `agent` on `input` and return the trace items the SDK exported for that run, as JSONL. */
export async function captureRun(agent: Agent, input: string): Promise<{ jsonl: string; items: Record<string, unknown>[]; traceId: string }> {
  captured.length = 0;
  await new Runner({ tracingDisabled: false }).run(agent, input);
  await sleep(5);
  const items = captured.splice(0) as Record<string, unknown>[];
  const traceItem = items.find((it) => it['object'] === 'trace');
  return { jsonl: items.map((it) => JSON.stringify(it)).join('\n') + '\n', items, traceId: String(traceItem?.['id']) };
}

/** A tool that runs the given sub-agents one after another (a serial pipeline inside one turn). */
export function serialPipelineTool(name: string, agents: readonly Agent[]) {
  return tool({
    name,
    description: 'run the team one after another',
    parameters: z.object({ task: z.string() }),
    execute: async ({ task }) => {
      const outputs: string[] = [];
      for (const a of agents) outputs.push(String((await run(a, task)).finalOutput));
      return outputs.join('\n');
    },
  });
}
