/**
 * VoltAgent (@voltagent/core 2.x) fixtures, in both of its multi-agent styles: a supervisor with
 * `subAgents` (which VoltAgent turns into a `delegate_task` tool; one call may name several
 * agents, run at once) and agents used as tools (`agent.toTool()`, several calls of one response
 * run at once by the AI SDK). Models are `MockLanguageModelV3` from `ai/test` (ai 6, which
 * VoltAgent 2.x requires), scripted; no network. Spans are VoltAgent's own OpenTelemetry spans
 * (`VoltAgentObservability` with an in-memory span processor), serialised by the real OTLP JSON
 * serializer, one export request per line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Agent, VoltAgentObservability, createTool } from '@voltagent/core';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'frameworks');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The mock's option and result types are ai 6's; the script only needs these parts of them.
type CallOptions = { prompt: { role: string; content: string | { type: string; text?: string; output?: unknown }[] }[] };
type Response = { content: Record<string, unknown>[]; finishReason: { unified: string; raw: string } };
type Step = (o: CallOptions) => Response | Error;

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const text = (t: string): Response => ({ content: [{ type: 'text', text: t }], finishReason: { unified: 'stop', raw: 'stop' } });
const calls = (...list: [string, string, Record<string, unknown>][]): Response => ({
  content: list.map(([toolName, toolCallId, input]) => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) })),
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
});

function userText(o: CallOptions): string {
  for (const m of [...o.prompt].reverse()) {
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    for (const part of m.content) if (part.type === 'text' && part.text !== undefined) return part.text;
  }
  return '';
}
function lastToolResult(o: CallOptions): string {
  for (let i = o.prompt.length - 1; i >= 0; i--) {
    const m = o.prompt[i];
    if (m?.role !== 'tool' || typeof m.content === 'string') continue;
    for (const part of m.content) if (part.type === 'tool-result') return JSON.stringify(part.output);
  }
  return '';
}

/** A MockLanguageModelV3 answering from a script after `delayMs` (generate and stream alike). */
function scripted(steps: Step[], delayMs: number): MockLanguageModelV3 {
  let i = 0;
  const next = async (o: CallOptions): Promise<Response> => {
    await sleep(delayMs);
    const out = (steps[Math.min(i++, steps.length - 1)] as Step)(o);
    if (out instanceof Error) throw out;
    return out;
  };
  return new MockLanguageModelV3({
    modelId: 'scripted',
    doGenerate: (async (o: CallOptions) => ({ ...(await next(o)), usage, warnings: [] })) as never,
    doStream: (async (o: CallOptions) => {
      const r = await next(o);
      return {
        stream: new ReadableStream({
          start(c) {
            c.enqueue({ type: 'stream-start', warnings: [] });
            for (const p of r.content) {
              if (p['type'] === 'text') {
                c.enqueue({ type: 'text-start', id: 't' });
                c.enqueue({ type: 'text-delta', id: 't', delta: p['text'] });
                c.enqueue({ type: 'text-end', id: 't' });
              } else c.enqueue(p);
            }
            c.enqueue({ type: 'finish', finishReason: r.finishReason, usage });
            c.close();
          },
        }),
      };
    }) as never,
  });
}

const exporter = new InMemorySpanExporter();
const observability = new VoltAgentObservability({ spanProcessors: [new SimpleSpanProcessor(exporter)], flushOnFinishStrategy: 'never' });

const lookup = createTool({
  name: 'lookup',
  description: 'look something up',
  parameters: z.object({ q: z.string() }),
  execute: async ({ q }) => {
    await sleep(20);
    return `notes on ${q}`;
  },
});

/** A worker: `lookups` tool calls one per response, then its report (or a failing model call). */
function worker(name: string, lookups: number, fails = false): Agent {
  const steps: Step[] = [];
  for (let i = 0; i < lookups; i++) steps.push((o) => calls(['lookup', `${name}_l${i}`, { q: `${userText(o)} #${i}` }]));
  steps.push(fails ? () => new Error(`${name}: the model provider returned 500`) : (o) => text(`${name} report: ${userText(o).toUpperCase()} is settled (${lookups} sources)`));
  return new Agent({ name, purpose: `the ${name} researcher`, instructions: `You are ${name}.`, model: scripted(steps, 40) as never, tools: [lookup], observability, maxRetries: 0 } as never);
}

function supervisor(name: string, steps: Step[], subAgents: Agent[]): Agent {
  return new Agent({ name, instructions: 'Plan, delegate, answer.', model: scripted(steps, 30) as never, subAgents, observability, maxRetries: 0 } as never);
}
function withTools(name: string, steps: Step[], agents: Agent[]): Agent {
  return new Agent({ name, instructions: 'Plan, ask, answer.', model: scripted(steps, 30) as never, tools: agents.map((a) => a.toTool()), observability, maxRetries: 0 } as never);
}

async function capture(agent: Agent, prompt: string): Promise<unknown[]> {
  exporter.reset();
  try {
    await agent.generateText(prompt, { maxSteps: 10 } as never);
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

function write(folder: string, scenario: string, values: unknown[]): void {
  const path = join(FIXTURES, folder, `${scenario}.jsonl`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, values.map((v) => JSON.stringify(v)).join('\n') + '\n');
}

const delegate = (id: string, task: string, ...targetAgents: string[]): [string, string, Record<string, unknown>] => ['delegate_task', id, { task, targetAgents }];
const ask = (agent: string, id: string, prompt: string): [string, string, Record<string, unknown>] => [agent, id, { prompt }];

/** `subAgents` with `delegate_task` (one call naming several agents runs them at once). */
async function supervisorStyle(): Promise<void> {
  const folder = 'voltagent-subagents';
  write(folder, 'parallel-swarm', await capture(supervisor('orchestrator', [() => calls(delegate('c1', 'research your topic', 'alpha', 'beta', 'gamma')), () => text('done')], [worker('alpha', 1), worker('beta', 2), worker('gamma', 0)]), 'compare three topics'));
  write(folder, 'serial-collapse', await capture(supervisor('orchestrator', [() => calls(delegate('c1', 'alpha topic', 'alpha')), () => calls(delegate('c2', 'beta topic', 'beta')), () => calls(delegate('c3', 'gamma topic', 'gamma')), () => text('done')], [worker('alpha', 1), worker('beta', 2), worker('gamma', 0)]), 'compare three topics'));
  write(folder, 'dependent-pipeline', await capture(supervisor('orchestrator', [() => calls(delegate('c1', 'draft the alpha report', 'alpha')), (o) => calls(delegate('c2', `check this: ${lastToolResult(o)}`, 'beta')), () => text('done')], [worker('alpha', 1), worker('beta', 1)]), 'draft then check'));
  write(folder, 'failing-subagent', await capture(supervisor('orchestrator', [() => calls(delegate('c1', 'research your topic', 'alpha', 'flaky')), () => text('done, one failed')], [worker('alpha', 1), worker('flaky', 1, true)]), 'two topics'));
  const lead = supervisor('lead', [() => calls(delegate('d1', 'dig in', 'delta', 'epsilon')), () => text('lead report: delta and epsilon settled')], [worker('delta', 1), worker('epsilon', 1)]);
  write(folder, 'nested-subagents', await capture(supervisor('orchestrator', [() => calls(delegate('c1', 'lead the deep dive', 'lead'), delegate('c2', 'alpha topic', 'alpha')), () => text('done')], [lead, worker('alpha', 2)]), 'deep dive'));
}

/** Agents used as tools (`agent.toTool()`): several calls of one response run at once. */
async function toolStyle(): Promise<void> {
  const folder = 'voltagent-as-tools';
  const tool = (a: Agent) => a.toTool().name;
  const [alpha, beta, gamma] = [worker('alpha', 1), worker('beta', 2), worker('gamma', 0)];
  write(folder, 'parallel-swarm', await capture(withTools('orchestrator', [() => calls(ask(tool(alpha), 'c1', 'alpha'), ask(tool(beta), 'c2', 'beta'), ask(tool(gamma), 'c3', 'gamma')), () => text('done')], [alpha, beta, gamma]), 'compare three topics'));
  const [a2, b2, g2] = [worker('alpha', 1), worker('beta', 2), worker('gamma', 0)];
  write(folder, 'serial-collapse', await capture(withTools('orchestrator', [() => calls(ask(tool(a2), 'c1', 'alpha')), () => calls(ask(tool(b2), 'c2', 'beta')), () => calls(ask(tool(g2), 'c3', 'gamma')), () => text('done')], [a2, b2, g2]), 'compare three topics'));
  const [a3, b3] = [worker('alpha', 1), worker('beta', 1)];
  write(folder, 'dependent-pipeline', await capture(withTools('orchestrator', [() => calls(ask(tool(a3), 'c1', 'draft the alpha report')), (o) => calls(ask(tool(b3), 'c2', `check this: ${lastToolResult(o)}`)), () => text('done')], [a3, b3]), 'draft then check'));
  const [a4, f4] = [worker('alpha', 1), worker('flaky', 1, true)];
  write(folder, 'failing-subagent', await capture(withTools('orchestrator', [() => calls(ask(tool(a4), 'c1', 'alpha'), ask(tool(f4), 'c2', 'flaky')), () => text('done, one failed')], [a4, f4]), 'two topics'));
  const [d5, e5, a5] = [worker('delta', 1), worker('epsilon', 1), worker('alpha', 2)];
  const lead = withTools('lead', [() => calls(ask(tool(d5), 'd1', 'delta'), ask(tool(e5), 'd2', 'epsilon')), () => text('lead report: delta and epsilon settled')], [d5, e5]);
  write(folder, 'nested-subagents', await capture(withTools('orchestrator', [() => calls(ask(tool(lead), 'c1', 'lead the deep dive'), ask(tool(a5), 'c2', 'alpha')), () => text('done')], [lead, a5]), 'deep dive'));
}

await supervisorStyle();
await toolStyle();
process.exit(0);
