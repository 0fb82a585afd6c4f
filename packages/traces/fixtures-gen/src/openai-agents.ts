/**
 * OpenAI Agents SDK (@openai/agents) runs with a scripted Model (the SDK's Model interface, no
 * network). The SDK runs a turn's function calls concurrently, so agents used as tools in one turn
 * really overlap. A TracingProcessor captures the items the SDK's exporter would send.
 */
import {
  Agent,
  Runner,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  Usage,
  withResponseSpan,
  type AgentInputItem,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type TracingProcessor,
} from '@openai/agents';
import { z } from 'zod';
import { sleep, writeFixture } from './write-fixture.js';

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

type Step = (request: ModelRequest) => AgentOutputItem[] | Error;

/** The function-call outputs the model has seen so far (what its sub-agents returned). */
function toolOutputs(request: ModelRequest): string[] {
  const items: AgentInputItem[] = typeof request.input === 'string' ? [] : request.input;
  const out: string[] = [];
  for (const item of items) {
    if (item.type === 'function_call_result' && item.output.type === 'text') out.push(item.output.text);
  }
  return out;
}

/** The user input of the request. */
function userText(request: ModelRequest): string {
  if (typeof request.input === 'string') return request.input;
  for (const item of request.input) {
    if (item.type === 'message' && item.role === 'user') return typeof item.content === 'string' ? item.content : JSON.stringify(item.content);
  }
  return '';
}

/**
 * A Model that answers from a script, one step per call, after `delayMs`. With `responseSpans`
 * it opens a `response` span per call as the SDK's own OpenAI model classes do.
 */
class ScriptedModel implements Model {
  private calls = 0;
  constructor(
    private readonly steps: readonly Step[],
    private readonly delayMs: number,
    private readonly responseSpans: boolean,
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const answer = async (): Promise<ModelResponse> => {
      await sleep(this.delayMs);
      const step = this.steps[Math.min(this.calls++, this.steps.length - 1)] as Step;
      const out = step(request);
      if (out instanceof Error) throw out;
      return { usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }), output: out, responseId: `resp_${this.calls}` };
    };
    return this.responseSpans ? withResponseSpan(async (span) => {
      const response = await answer();
      span.spanData.response_id = response.responseId ?? '';
      return response;
    }) : answer();
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the scripted model does not stream');
  }
}

const message = (text: string): AgentOutputItem => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });
const call = (name: string, callId: string, input: string): AgentOutputItem => ({ type: 'function_call', callId, name, arguments: JSON.stringify({ input }), status: 'completed' });

interface Options {
  readonly responseSpans: boolean;
}

/** A sub-agent: `lookups` model calls that call the lookup tool, then an answer (or a model failure). */
function worker(name: string, lookups: number, o: Options, fails = false): Agent {
  const lookup = tool({ name: 'lookup', description: 'look something up', parameters: z.object({ q: z.string() }), execute: async ({ q }) => { await sleep(20); return `notes on ${q}`; } });
  const steps: Step[] = [];
  for (let i = 0; i < lookups; i++) steps.push((r) => [{ type: 'function_call', callId: `${name}_l${i}`, name: 'lookup', arguments: JSON.stringify({ q: `${userText(r)} #${i}` }), status: 'completed' }]);
  steps.push(fails ? () => new Error(`${name}: the model provider returned 500`) : (r) => [message(`${name} report: ${userText(r).toUpperCase()} is settled (${lookups} sources)`)]);
  return new Agent({ name, instructions: `You are ${name}.`, tools: [lookup], model: new ScriptedModel(steps, 40, o.responseSpans) });
}

function asTool(agent: Agent) {
  return agent.asTool({ toolName: `ask_${agent.name}`, toolDescription: `delegate to ${agent.name}` });
}

async function capture(agent: Agent, input: string): Promise<unknown[]> {
  captured.length = 0;
  try {
    await new Runner({ tracingDisabled: false, workflowName: 'parl fixture' }).run(agent, input);
  } catch (err) {
    console.error(`  (run ended in error as scripted: ${(err as Error).message})`);
  }
  await sleep(20);
  return captured.splice(0);
}

function orchestrator(name: string, steps: Step[], tools: Agent[], o: Options, handoffs: Agent[] = []): Agent {
  return new Agent({ name, instructions: 'Plan, delegate, answer.', tools: tools.map(asTool), handoffs, model: new ScriptedModel(steps, 30, o.responseSpans) });
}

/** Every scenario, written under openai-agents/ (turn spans) and openai-agents-response-spans/. */
export async function generateOpenAiAgents(): Promise<void> {
  setTracingDisabled(false);
  setTraceProcessors([processor]);
  for (const [folder, o] of [
    ['openai-agents', { responseSpans: false }],
    ['openai-agents-response-spans', { responseSpans: true }],
  ] as const) {
    // 1. Parallel swarm: three workers called in one turn (the SDK runs them concurrently), then the answer.
    const swarm = orchestrator('orchestrator', [() => [call('ask_alpha', 'c1', 'alpha'), call('ask_beta', 'c2', 'beta'), call('ask_gamma', 'c3', 'gamma')], () => [message('done')]], [worker('alpha', 1, o), worker('beta', 2, o), worker('gamma', 0, o)], o);
    writeFixture(folder, 'parallel-swarm', await capture(swarm, 'compare three topics'));

    // 2. Serial collapse: one independent worker per orchestrator turn.
    const serial = orchestrator('orchestrator', [() => [call('ask_alpha', 'c1', 'alpha')], () => [call('ask_beta', 'c2', 'beta')], () => [call('ask_gamma', 'c3', 'gamma')], () => [message('done')]], [worker('alpha', 1, o), worker('beta', 2, o), worker('gamma', 0, o)], o);
    writeFixture(folder, 'serial-collapse', await capture(serial, 'compare three topics'));

    // 3. A dependent pipeline: each turn passes the previous worker's report on (not serial collapse).
    const pipeline = orchestrator('orchestrator', [() => [call('ask_alpha', 'c1', 'alpha')], (r) => [call('ask_beta', 'c2', `check this: ${toolOutputs(r).at(-1) ?? ''}`)], () => [message('done')]], [worker('alpha', 1, o), worker('beta', 1, o)], o);
    writeFixture(folder, 'dependent-pipeline', await capture(pipeline, 'draft then check'));

    // 4. A failing sub-agent beside a healthy one.
    const failing = orchestrator('orchestrator', [() => [call('ask_alpha', 'c1', 'alpha'), call('ask_flaky', 'c2', 'flaky')], () => [message('done, one failed')]], [worker('alpha', 1, o), worker('flaky', 1, o, true)], o);
    writeFixture(folder, 'failing-subagent', await capture(failing, 'two topics'));

    // 5. Nested: a lead sub-agent with two sub-agents of its own, beside a worker.
    const lead = orchestrator('lead', [() => [call('ask_delta', 'd1', 'delta'), call('ask_epsilon', 'd2', 'epsilon')], () => [message('lead report: delta and epsilon settled')]], [worker('delta', 1, o), worker('epsilon', 1, o)], o);
    const nested = orchestrator('orchestrator', [() => [call('ask_lead', 'c1', 'lead the deep dive'), call('ask_alpha', 'c2', 'alpha')], () => [message('done')]], [lead, worker('alpha', 2, o)], o);
    writeFixture(folder, 'nested-subagents', await capture(nested, 'deep dive'));

    // 6. Handoff: a triage agent hands off to a planner that runs two workers in parallel.
    const planner = orchestrator('planner', [() => [call('ask_alpha', 'p1', 'alpha'), call('ask_beta', 'p2', 'beta')], () => [message('planned')]], [worker('alpha', 1, o), worker('beta', 1, o)], o);
    const triage = orchestrator('triage', [() => [{ type: 'function_call', callId: 'h1', name: 'transfer_to_planner', arguments: '{}', status: 'completed' }]], [], o, [planner]);
    writeFixture(folder, 'handoff', await capture(triage, 'plan something'));
  }
}
