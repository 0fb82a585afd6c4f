/**
 * Strands Agents (@strands-agents/sdk) fixtures: an orchestrator whose sub-agents are agents used
 * as tools (`agent.asTool()`); Strands runs one response's tool calls concurrently by default
 * (`toolExecutor: 'concurrent'`), and the `sequential-tools` scenario switches to `'sequential'`
 * so that the record shows what ran. Strands ships no test model: the model is a scripted
 * subclass of the SDK's own `Model` class (no network). Spans are Strands' own OpenTelemetry spans
 * (GenAI conventions: `invoke_agent`, `chat`, `execute_tool`) from the global tracer provider,
 * exported in memory and serialised by the real OTLP JSON serializer.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { Agent, Model, tool, type Message, type ModelStreamEvent } from '@strands-agents/sdk';
import { z } from 'zod';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'frameworks');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Strands puts message content on span attributes (where OTLP readers see it) only with the latest
// GenAI conventions; without it, in span events. Read when each agent's tracer is made.
process.env['OTEL_SEMCONV_STABILITY_OPT_IN'] = 'gen_ai_latest_experimental';

const exporter = new InMemorySpanExporter();
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();

type Reply = { text: string } | { calls: [string, string, Record<string, unknown>][] } | Error;
type Step = (messages: Message[]) => Reply;

function blocksOf(m: Message): { type: string; text?: string; content?: unknown }[] {
  return (m as unknown as { content: { type: string; text?: string; content?: unknown }[] }).content;
}
function userText(messages: Message[]): string {
  for (const m of [...messages].reverse()) {
    if (m.role !== 'user') continue;
    for (const b of blocksOf(m)) if (b.type === 'textBlock' && b.text !== undefined) return b.text;
  }
  return '';
}
function lastToolResult(messages: Message[]): string {
  for (const m of [...messages].reverse()) for (const b of blocksOf(m)) if (b.type === 'toolResultBlock') return JSON.stringify(b.content);
  return '';
}

/** The SDK's Model, answering from a script after `delayMs`, as a stream of the SDK's events. */
class ScriptedModel extends Model {
  private i = 0;
  constructor(private readonly steps: Step[], private readonly delayMs: number) {
    super();
  }
  updateConfig(): void {}
  getConfig() {
    return { modelId: 'scripted' };
  }
  async *stream(messages: Message[]): AsyncIterable<ModelStreamEvent> {
    await sleep(this.delayMs);
    const reply = (this.steps[Math.min(this.i++, this.steps.length - 1)] as Step)(messages);
    if (reply instanceof Error) throw reply;
    yield { type: 'modelMessageStartEvent', role: 'assistant' } as ModelStreamEvent;
    if ('text' in reply) {
      yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'textDelta', text: reply.text } } as ModelStreamEvent;
      yield { type: 'modelContentBlockStopEvent' } as ModelStreamEvent;
      yield { type: 'modelMessageStopEvent', stopReason: 'endTurn' } as ModelStreamEvent;
    } else {
      for (const [name, toolUseId, input] of reply.calls) {
        yield { type: 'modelContentBlockStartEvent', start: { type: 'toolUseStart', name, toolUseId } } as ModelStreamEvent;
        yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'toolUseInputDelta', input: JSON.stringify(input) } } as ModelStreamEvent;
        yield { type: 'modelContentBlockStopEvent' } as ModelStreamEvent;
      }
      yield { type: 'modelMessageStopEvent', stopReason: 'toolUse' } as ModelStreamEvent;
    }
    yield { type: 'modelMetadataEvent', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } } as ModelStreamEvent;
  }
}

const lookup = tool({
  name: 'lookup',
  description: 'look something up',
  inputSchema: z.object({ q: z.string() }),
  callback: async ({ q }) => {
    await sleep(20);
    return `notes on ${q}`;
  },
});

function worker(name: string, lookups: number, fails = false): Agent {
  const steps: Step[] = [];
  for (let i = 0; i < lookups; i++) steps.push((m) => ({ calls: [['lookup', `${name}_l${i}`, { q: `${userText(m)} #${i}` }]] }));
  steps.push(fails ? () => new Error(`${name}: the model provider returned 500`) : (m) => ({ text: `${name} report: ${userText(m).toUpperCase()} is settled (${lookups} sources)` }));
  return new Agent({ name, description: `the ${name} researcher`, systemPrompt: `You are ${name}.`, model: new ScriptedModel(steps, 40), tools: [lookup], printer: false } as never);
}

function orchestrator(name: string, steps: Step[], agents: Agent[], toolExecutor: 'concurrent' | 'sequential' = 'concurrent'): Agent {
  return new Agent({ name, systemPrompt: 'Plan, ask, answer.', model: new ScriptedModel(steps, 30), tools: agents.map((a) => a.asTool()), toolExecutor, printer: false } as never);
}

const ask = (agent: string, id: string, input: string): [string, string, Record<string, unknown>] => [agent, id, { input }];

async function capture(agent: Agent, prompt: string): Promise<unknown[]> {
  exporter.reset();
  try {
    await agent.invoke(prompt);
  } catch (err) {
    console.error(`  (run ended in error as scripted: ${(err as Error).message})`);
  }
  await sleep(100);
  const spans = exporter.getFinishedSpans();
  exporter.reset();
  const request = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans))) as OtlpRequest;
  // Exception stack traces name this machine's paths: keep the message only.
  const local = (a: { key: string }) => a.key !== 'exception.stacktrace' && a.key !== 'error.stack';
  for (const rs of request.resourceSpans) {
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        span.attributes = span.attributes?.filter(local);
        for (const event of span.events ?? []) event.attributes = event.attributes?.filter(local);
      }
    }
  }
  return [request];
}
type OtlpRequest = { resourceSpans: { scopeSpans: { spans: { attributes?: { key: string }[]; events?: { attributes?: { key: string }[] }[] }[] }[] }[] };

function write(scenario: string, values: unknown[]): void {
  const path = join(FIXTURES, 'strands', `${scenario}.jsonl`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, values.map((v) => JSON.stringify(v)).join('\n') + '\n');
}

const three = () => [worker('alpha', 1), worker('beta', 2), worker('gamma', 0)];
write('parallel-swarm', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('alpha', 'c1', 'alpha'), ask('beta', 'c2', 'beta'), ask('gamma', 'c3', 'gamma')] }), () => ({ text: 'done' })], three()), 'compare three topics'));
write('serial-collapse', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('alpha', 'c1', 'alpha')] }), () => ({ calls: [ask('beta', 'c2', 'beta')] }), () => ({ calls: [ask('gamma', 'c3', 'gamma')] }), () => ({ text: 'done' })], three()), 'compare three topics'));
write('dependent-pipeline', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('alpha', 'c1', 'draft the alpha report')] }), (m) => ({ calls: [ask('beta', 'c2', `check this: ${lastToolResult(m)}`)] }), () => ({ text: 'done' })], [worker('alpha', 1), worker('beta', 1)]), 'draft then check'));
write('failing-subagent', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('alpha', 'c1', 'alpha'), ask('flaky', 'c2', 'flaky')] }), () => ({ text: 'done, one failed' })], [worker('alpha', 1), worker('flaky', 1, true)]), 'two topics'));
const lead = orchestrator('lead', [() => ({ calls: [ask('delta', 'd1', 'delta'), ask('epsilon', 'd2', 'epsilon')] }), () => ({ text: 'lead report: delta and epsilon settled' })], [worker('delta', 1), worker('epsilon', 1)]);
write('nested-subagents', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('lead', 'c1', 'lead the deep dive'), ask('alpha', 'c2', 'alpha')] }), () => ({ text: 'done' })], [lead, worker('alpha', 2)]), 'deep dive'));
// One response asking three workers, run one after another by the sequential executor: as run, three waves.
write('sequential-tools', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('alpha', 'c1', 'alpha'), ask('beta', 'c2', 'beta'), ask('gamma', 'c3', 'gamma')] }), () => ({ text: 'done' })], three(), 'sequential'), 'compare three topics'));
process.exit(0);
