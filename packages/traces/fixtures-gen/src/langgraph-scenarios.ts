/**
 * The LangGraph scenarios every LangGraph tracer records (OpenInference spans, LangSmith runs,
 * LangSmith's OpenTelemetry mode): `createReactAgent` orchestrators whose tools run worker graphs
 * (agents as tools; LangGraph's ToolNode runs one message's tool calls concurrently), on a scripted
 * subclass of LangChain's `FakeStreamingChatModel` (it answers the same message every call; the
 * subclass answers one scripted message per call).
 */
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import type { RunnableConfig } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { sleep } from './write-fixture.js';

type Step = (messages: BaseMessage[]) => AIMessage | Error;

/** A FakeStreamingChatModel that answers from a script, one message per call, after `delayMs`. */
class ScriptedChatModel extends FakeStreamingChatModel {
  private calls = 0;
  constructor(
    private readonly steps: Step[],
    private readonly delayMs: number,
  ) {
    super({ sleep: 0 });
  }

  /** The script decides the tool calls: binding tools keeps this model (the base class would return a plain copy). */
  override bindTools(): never {
    return this as never;
  }

  private next(messages: BaseMessage[]): AIMessage {
    const out = (this.steps[Math.min(this.calls++, this.steps.length - 1)] as Step)(messages);
    if (out instanceof Error) throw out;
    return out;
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    await sleep(this.delayMs);
    const message = this.next(messages);
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }

  override async *_streamResponseChunks(messages: BaseMessage[]): AsyncGenerator<ChatGenerationChunk> {
    await sleep(this.delayMs);
    const m = this.next(messages);
    yield new ChatGenerationChunk({ message: new AIMessageChunk({ content: m.content, tool_call_chunks: (m.tool_calls ?? []).map((c, index) => ({ name: c.name, args: JSON.stringify(c.args), id: c.id, index, type: 'tool_call_chunk' as const })) }), text: typeof m.content === 'string' ? m.content : '' });
  }
}

const calls = (...list: [string, string, Record<string, unknown>][]) => new AIMessage({ content: '', tool_calls: list.map(([name, id, args]) => ({ name, id, args, type: 'tool_call' as const })) });
const text = (t: string) => new AIMessage(t);
function userText(messages: BaseMessage[]): string {
  const m = messages.find((x) => x.getType() === 'human');
  return typeof m?.content === 'string' ? m.content : '';
}
function lastToolResult(messages: BaseMessage[]): string {
  const m = [...messages].reverse().find((x) => x.getType() === 'tool');
  return typeof m?.content === 'string' ? m.content : '';
}

const lookup = tool(async ({ q }: { q: string }) => { await sleep(20); return `notes on ${q}`; }, { name: 'lookup', description: 'look something up', schema: z.object({ q: z.string() }) });

/** A graph exposed as a tool `ask_<name>`: its func invokes the graph with the tool's config, so the graph's runs sit under the tool's run. */
function graphTool(name: string, graph: ReturnType<typeof createReactAgent>) {
  return tool(
    async ({ input }: { input: string }, config) => {
      const out = await graph.invoke({ messages: [{ role: 'user', content: input }] }, config);
      const last = out.messages.at(-1);
      return typeof last?.content === 'string' ? last.content : '';
    },
    { name: `ask_${name}`, description: `delegate to ${name}`, schema: z.object({ input: z.string() }) },
  );
}

/** A worker graph (`lookups` lookups, then a report; or a failing model call) as a tool. */
function workerTool(name: string, lookups: number, fails = false) {
  const steps: Step[] = [];
  for (let i = 0; i < lookups; i++) steps.push((m) => calls(['lookup', `${name}_l${i}`, { q: `${userText(m)} #${i}` }]));
  steps.push(fails ? () => new Error(`${name}: the model provider returned 500`) : (m) => text(`${name} report: ${userText(m).toUpperCase()} is settled (${lookups} sources)`));
  return graphTool(name, createReactAgent({ llm: new ScriptedChatModel(steps, 40), tools: [lookup], name }));
}

async function orchestrate(steps: Step[], tools: ReturnType<typeof graphTool>[], prompt: string, config: RunnableConfig): Promise<void> {
  const graph = createReactAgent({ llm: new ScriptedChatModel(steps, 30), tools, name: 'orchestrator' });
  await graph.invoke({ messages: [{ role: 'user', content: prompt }] }, config);
}

/** A scenario: its fixture name and a run of it with the given config (callbacks, run name…). */
export interface LangGraphScenario {
  name: string;
  run: (config: RunnableConfig) => Promise<void>;
}

/**
 * The five scenarios of every framework folder (see the fixtures' README). Each call builds fresh
 * graphs and models (the scripted models count their calls).
 */
export function langGraphScenarios(): LangGraphScenario[] {
  return [
    {
      name: 'parallel-swarm',
      run: (config) => orchestrate(
        [() => calls(['ask_alpha', 'c1', { input: 'alpha' }], ['ask_beta', 'c2', { input: 'beta' }], ['ask_gamma', 'c3', { input: 'gamma' }]), () => text('done')],
        [workerTool('alpha', 1), workerTool('beta', 2), workerTool('gamma', 0)], 'compare three topics', config),
    },
    {
      name: 'serial-collapse',
      run: (config) => orchestrate(
        [() => calls(['ask_alpha', 'c1', { input: 'alpha' }]), () => calls(['ask_beta', 'c2', { input: 'beta' }]), () => calls(['ask_gamma', 'c3', { input: 'gamma' }]), () => text('done')],
        [workerTool('alpha', 1), workerTool('beta', 2), workerTool('gamma', 0)], 'compare three topics', config),
    },
    {
      name: 'dependent-pipeline',
      run: (config) => orchestrate(
        [() => calls(['ask_alpha', 'c1', { input: 'alpha' }]), (m) => calls(['ask_beta', 'c2', { input: `check this: ${lastToolResult(m)}` }]), () => text('done')],
        [workerTool('alpha', 1), workerTool('beta', 1)], 'draft then check', config),
    },
    {
      name: 'failing-subagent',
      run: (config) => orchestrate(
        [() => calls(['ask_alpha', 'c1', { input: 'alpha' }], ['ask_flaky', 'c2', { input: 'flaky' }]), () => text('done, one failed')],
        [workerTool('alpha', 1), workerTool('flaky', 1, true)], 'two topics', config),
    },
    {
      name: 'nested-subagents',
      run: (config) => {
        const lead = graphTool('lead', createReactAgent({ llm: new ScriptedChatModel([() => calls(['ask_delta', 'd1', { input: 'delta' }], ['ask_epsilon', 'd2', { input: 'epsilon' }]), () => text('lead report: delta and epsilon settled')], 30), tools: [workerTool('delta', 1), workerTool('epsilon', 1)], name: 'lead' }));
        return orchestrate(
          [() => calls(['ask_lead', 'c1', { input: 'lead the deep dive' }], ['ask_alpha', 'c2', { input: 'alpha' }]), () => text('done')],
          [lead, workerTool('alpha', 2)], 'deep dive', config);
      },
    },
  ];
}
