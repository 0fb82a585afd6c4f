/**
 * Google ADK for TypeScript (@google/adk) fixtures: an orchestrator `LlmAgent` whose sub-agents
 * are agents used as tools (`AgentTool`), run by ADK's `InMemoryRunner`. ADK ships no test model:
 * the model is a scripted subclass of the SDK's own `BaseLlm` (no network). Spans are ADK's own
 * OpenTelemetry spans (GenAI conventions: `invoke_agent`, `generate_content`, `execute_tool`)
 * from the global tracer provider, exported in memory and serialised by the real OTLP JSON
 * serializer. The records show what ADK ran: see the README of the fixtures for whether one
 * response's tool calls ran at once.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { AgentTool, BaseLlm, FunctionTool, InMemoryRunner, LlmAgent, type LlmResponse } from '@google/adk';
import { z } from 'zod';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'frameworks');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const exporter = new InMemorySpanExporter();
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();

type Part = { text?: string; functionCall?: { name: string; args: Record<string, unknown>; id: string }; functionResponse?: { response?: unknown } };
type Request = { contents: { role?: string; parts?: Part[] }[] };
type Reply = { text: string } | { calls: [string, string, Record<string, unknown>][] } | Error;
type Step = (request: Request) => Reply;

function userText(r: Request): string {
  for (const c of [...r.contents].reverse()) if (c.role === 'user') for (const p of c.parts ?? []) if (p.text !== undefined) return p.text;
  return '';
}
function lastToolResult(r: Request): string {
  for (const c of [...r.contents].reverse()) for (const p of c.parts ?? []) if (p.functionResponse !== undefined) return JSON.stringify(p.functionResponse.response);
  return '';
}

/** ADK's BaseLlm, answering from a script after `delayMs`. */
class ScriptedLlm extends BaseLlm {
  private i = 0;
  constructor(private readonly steps: Step[], private readonly delayMs: number) {
    super({ model: 'scripted' });
  }
  async *generateContentAsync(request: unknown): AsyncGenerator<LlmResponse, void> {
    await sleep(this.delayMs);
    const reply = (this.steps[Math.min(this.i++, this.steps.length - 1)] as Step)(request as Request);
    if (reply instanceof Error) throw reply;
    const parts: Part[] = 'text' in reply ? [{ text: reply.text }] : reply.calls.map(([name, id, args]) => ({ functionCall: { name, args, id } }));
    yield { content: { role: 'model', parts }, usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 } } as LlmResponse;
  }
  async connect(): Promise<never> {
    throw new Error('live connections are not scripted');
  }
}

const lookup = new FunctionTool({
  name: 'lookup',
  description: 'look something up',
  parameters: z.object({ q: z.string() }),
  execute: async ({ q }: { q: string }) => {
    await sleep(20);
    return `notes on ${q}`;
  },
} as never);

function worker(name: string, lookups: number, fails = false): LlmAgent {
  const steps: Step[] = [];
  for (let i = 0; i < lookups; i++) steps.push((r) => ({ calls: [['lookup', `${name}_l${i}`, { q: `${userText(r)} #${i}` }]] }));
  steps.push(fails ? () => new Error(`${name}: the model provider returned 500`) : (r) => ({ text: `${name} report: ${userText(r).toUpperCase()} is settled (${lookups} sources)` }));
  return new LlmAgent({ name, description: `the ${name} researcher`, instruction: `You are ${name}.`, model: new ScriptedLlm(steps, 40), tools: [lookup] } as never);
}

function orchestrator(name: string, steps: Step[], agents: LlmAgent[]): LlmAgent {
  return new LlmAgent({ name, description: `the ${name}`, instruction: 'Plan, ask, answer.', model: new ScriptedLlm(steps, 30), tools: agents.map((agent) => new AgentTool({ agent })) } as never);
}

const ask = (agent: string, id: string, request: string): [string, string, Record<string, unknown>] => [agent, id, { request }];

let sessions = 0;
async function capture(agent: LlmAgent, prompt: string): Promise<unknown[]> {
  exporter.reset();
  const runner = new InMemoryRunner({ agent, appName: 'parl-fixture' } as never);
  const sessionId = `s${++sessions}`;
  await runner.sessionService.createSession({ appName: 'parl-fixture', userId: 'u', sessionId });
  try {
    for await (const event of runner.runAsync({ userId: 'u', sessionId, newMessage: { role: 'user', parts: [{ text: prompt }] } })) {
      const e = event as { errorMessage?: string };
      if (e.errorMessage !== undefined) console.error(`  (event with an error as scripted: ${e.errorMessage})`);
    }
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
  const path = join(FIXTURES, 'google-adk', `${scenario}.jsonl`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, values.map((v) => JSON.stringify(v)).join('\n') + '\n');
}

const three = () => [worker('alpha', 1), worker('beta', 2), worker('gamma', 0)];
write('parallel-swarm', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('alpha', 'c1', 'alpha'), ask('beta', 'c2', 'beta'), ask('gamma', 'c3', 'gamma')] }), () => ({ text: 'done' })], three()), 'compare three topics'));
write('serial-collapse', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('alpha', 'c1', 'alpha')] }), () => ({ calls: [ask('beta', 'c2', 'beta')] }), () => ({ calls: [ask('gamma', 'c3', 'gamma')] }), () => ({ text: 'done' })], three()), 'compare three topics'));
write('dependent-pipeline', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('alpha', 'c1', 'draft the alpha report')] }), (r) => ({ calls: [ask('beta', 'c2', `check this: ${lastToolResult(r)}`)] }), () => ({ text: 'done' })], [worker('alpha', 1), worker('beta', 1)]), 'draft then check'));
write('failing-subagent', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('alpha', 'c1', 'alpha'), ask('flaky', 'c2', 'flaky')] }), () => ({ text: 'done, one failed' })], [worker('alpha', 1), worker('flaky', 1, true)]), 'two topics'));
const lead = orchestrator('lead', [() => ({ calls: [ask('delta', 'd1', 'delta'), ask('epsilon', 'd2', 'epsilon')] }), () => ({ text: 'lead report: delta and epsilon settled' })], [worker('delta', 1), worker('epsilon', 1)]);
write('nested-subagents', await capture(orchestrator('orchestrator', [() => ({ calls: [ask('lead', 'c1', 'lead the deep dive'), ask('alpha', 'c2', 'alpha')] }), () => ({ text: 'done' })], [lead, worker('alpha', 2)]), 'deep dive'));
process.exit(0);
