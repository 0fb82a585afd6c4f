/**
 * Mastra (@mastra/core) supervisor agents with sub-agents (`agents: {…}`, which Mastra turns into
 * `agent-<name>` tools and runs concurrently when one step calls several), on
 * `MockLanguageModelV4` from `ai/test` (streamed, as Mastra always streams). Spans are Mastra's
 * own exported span objects (@mastra/observability's TestExporter), one JSON object per line.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core';
import { createTool } from '@mastra/core/tools';
import { Observability, TestExporter } from '@mastra/observability';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { sleep, writeFixture } from './write-fixture.js';

type Step = (o: LanguageModelV4CallOptions) => LanguageModelV4StreamPart[] | Error;

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

function text(t: string): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: t },
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ] as LanguageModelV4StreamPart[];
}
function calls(...list: [string, string, Record<string, unknown>][]): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    ...list.map(([toolName, toolCallId, input]) => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) })),
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
  ] as LanguageModelV4StreamPart[];
}
function userText(o: LanguageModelV4CallOptions): string {
  for (const m of [...o.prompt].reverse()) if (m.role === 'user') for (const part of m.content) if (part.type === 'text') return part.text;
  return '';
}
function lastToolResult(o: LanguageModelV4CallOptions): string {
  for (let i = o.prompt.length - 1; i >= 0; i--) {
    const m = o.prompt[i];
    if (m?.role !== 'tool') continue;
    for (const part of m.content) if (part.type === 'tool-result') return JSON.stringify(part.output);
  }
  return '';
}

/** A streamed MockLanguageModelV4 answering from a script after `delayMs`. */
function scripted(steps: Step[], delayMs: number): MockLanguageModelV4 {
  let i = 0;
  return new MockLanguageModelV4({
    modelId: 'scripted',
    doStream: async (o) => {
      await sleep(delayMs);
      const out = (steps[Math.min(i++, steps.length - 1)] as Step)(o);
      if (out instanceof Error) throw out;
      return { stream: new ReadableStream({ start(c) { for (const p of out) c.enqueue(p); c.close(); } }) };
    },
    // Mastra's generate() calls doGenerate on AI SDK v7 models: the same script, as one result.
    doGenerate: async (o) => {
      await sleep(delayMs);
      const out = (steps[Math.min(i++, steps.length - 1)] as Step)(o);
      if (out instanceof Error) throw out;
      const content = out.flatMap((p) => (p.type === 'text-delta' ? [{ type: 'text' as const, text: p.delta }] : p.type === 'tool-call' ? [p] : []));
      const finish = out.find((p) => p.type === 'finish');
      return { content, finishReason: finish?.type === 'finish' ? finish.finishReason : { unified: 'stop', raw: 'stop' }, usage, warnings: [] } as never;
    },
  });
}

const lookup = createTool({ id: 'lookup', description: 'look something up', inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => { await sleep(20); return `notes on ${q}`; } });

function worker(name: string, lookups: number, fails = false): Agent {
  const steps: Step[] = [];
  for (let i = 0; i < lookups; i++) steps.push((o) => calls(['lookup', `${name}_l${i}`, { q: `${userText(o)} #${i}` }]));
  steps.push(fails ? () => new Error(`${name}: the model provider returned 500`) : (o) => text(`${name} report: ${userText(o).toUpperCase()} is settled (${lookups} sources)`));
  return new Agent({ id: name, name, description: `the ${name} researcher`, instructions: `You are ${name}.`, model: scripted(steps, 40), tools: { lookup } });
}

function supervisor(name: string, steps: Step[], agents: Record<string, Agent>): Agent {
  return new Agent({ id: name, name, instructions: 'Plan, delegate, answer.', model: scripted(steps, 30), agents });
}

async function capture(agent: Agent, prompt: string): Promise<unknown[]> {
  const exporter = new TestExporter({ validateLifecycle: false });
  const mastra = new Mastra({ agents: { [agent.name]: agent }, logger: false, observability: new Observability({ configs: { default: { serviceName: 'parl-fixture', exporters: [exporter] } } }) });
  try {
    const out = await mastra.getAgent(agent.name).generate(prompt, { maxSteps: 10 });
    if (out.error !== undefined && out.error !== null) console.error(`  (run reported an error as scripted: ${String(out.error)})`);
  } catch (err) {
    console.error(`  (run ended in error as scripted: ${(err as Error).message})`);
  }
  await sleep(50);
  await exporter.flush();
  // Error stacks name this machine's paths: keep the message only.
  const spans = exporter.getCompletedSpans().map((span) => {
    const info = (span as { errorInfo?: Record<string, unknown> }).errorInfo;
    if (info !== undefined) delete info['stack'];
    return span;
  });
  await mastra.shutdown?.();
  return spans;
}

/** Every scenario, under mastra/. */
export async function generateMastra(): Promise<void> {
  const folder = 'mastra';
  writeFixture(folder, 'parallel-swarm', await capture(supervisor('orchestrator',
    [() => calls(['agent-alpha', 'c1', { prompt: 'alpha' }], ['agent-beta', 'c2', { prompt: 'beta' }], ['agent-gamma', 'c3', { prompt: 'gamma' }]), () => text('done')],
    { alpha: worker('alpha', 1), beta: worker('beta', 2), gamma: worker('gamma', 0) }), 'compare three topics'));
  writeFixture(folder, 'serial-collapse', await capture(supervisor('orchestrator',
    [() => calls(['agent-alpha', 'c1', { prompt: 'alpha' }]), () => calls(['agent-beta', 'c2', { prompt: 'beta' }]), () => calls(['agent-gamma', 'c3', { prompt: 'gamma' }]), () => text('done')],
    { alpha: worker('alpha', 1), beta: worker('beta', 2), gamma: worker('gamma', 0) }), 'compare three topics'));
  writeFixture(folder, 'dependent-pipeline', await capture(supervisor('orchestrator',
    [() => calls(['agent-alpha', 'c1', { prompt: 'alpha' }]), (o) => calls(['agent-beta', 'c2', { prompt: `check this: ${lastToolResult(o)}` }]), () => text('done')],
    { alpha: worker('alpha', 1), beta: worker('beta', 1) }), 'draft then check'));
  writeFixture(folder, 'failing-subagent', await capture(supervisor('orchestrator',
    [() => calls(['agent-alpha', 'c1', { prompt: 'alpha' }], ['agent-flaky', 'c2', { prompt: 'flaky' }]), () => text('done, one failed')],
    { alpha: worker('alpha', 1), flaky: worker('flaky', 1, true) }), 'two topics'));
  const lead = supervisor('lead', [() => calls(['agent-delta', 'd1', { prompt: 'delta' }], ['agent-epsilon', 'd2', { prompt: 'epsilon' }]), () => text('lead report: delta and epsilon settled')], { delta: worker('delta', 1), epsilon: worker('epsilon', 1) });
  writeFixture(folder, 'nested-subagents', await capture(supervisor('orchestrator',
    [() => calls(['agent-lead', 'c1', { prompt: 'lead the deep dive' }], ['agent-alpha', 'c2', { prompt: 'alpha' }]), () => text('done')],
    { lead, alpha: worker('alpha', 2) }), 'deep dive'));
}
