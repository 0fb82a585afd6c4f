/**
 * Vercel AI SDK (`ai`) runs with `MockLanguageModelV4` from `ai/test`, traced by `@ai-sdk/otel`
 * in both of its formats: `OpenTelemetry` (GenAI semantic conventions) and `LegacyOpenTelemetry`
 * (the `ai.*` spans of AI SDK 3–6). A sub-agent is a tool whose execute runs its own
 * generateText; the SDK runs one step's tool calls concurrently.
 */
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import type { LanguageModelV4GenerateResult, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, isStepCount, tool, type Telemetry, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { captureOpenInference, captureOtlp, otelTracer } from './otel-capture.js';
import { sleep, writeFixture } from './write-fixture.js';

type Step = (options: LanguageModelV4CallOptions) => LanguageModelV4GenerateResult | Error;

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

function text(t: string): LanguageModelV4GenerateResult {
  return { content: [{ type: 'text', text: t }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] } as LanguageModelV4GenerateResult;
}
function calls(...list: [string, string, Record<string, unknown>][]): LanguageModelV4GenerateResult {
  return {
    content: list.map(([toolName, toolCallId, input]) => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  } as LanguageModelV4GenerateResult;
}

/** The last tool result the model has seen, as text. */
function lastToolResult(o: LanguageModelV4CallOptions): string {
  for (let i = o.prompt.length - 1; i >= 0; i--) {
    const m = o.prompt[i];
    if (m?.role !== 'tool') continue;
    for (const part of m.content) if (part.type === 'tool-result') return JSON.stringify(part.output);
  }
  return '';
}
function userText(o: LanguageModelV4CallOptions): string {
  for (const m of o.prompt) if (m.role === 'user') for (const part of m.content) if (part.type === 'text') return part.text;
  return '';
}

/** A MockLanguageModelV4 that answers from a script after `delayMs`. */
function scripted(steps: Step[], delayMs: number): MockLanguageModelV4 {
  let i = 0;
  return new MockLanguageModelV4({
    modelId: 'scripted',
    doGenerate: async (o) => {
      await sleep(delayMs);
      const out = (steps[Math.min(i++, steps.length - 1)] as Step)(o);
      if (out instanceof Error) throw out;
      return out;
    },
  });
}

function telemetryFor(legacy: boolean): Telemetry {
  const tracer = otelTracer('ai-fixture');
  return legacy ? new LegacyOpenTelemetry({ tracer }) : new OpenTelemetry({ tracer });
}

/** A sub-agent as a tool: its execute runs generateText with its own model (lookups then an answer). */
function workerTool(name: string, lookups: number, telemetry: Telemetry, fails = false) {
  const steps: Step[] = [];
  for (let i = 0; i < lookups; i++) steps.push((o) => calls(['lookup', `${name}_l${i}`, { q: `${userText(o)} #${i}` }]));
  steps.push(fails ? () => new Error(`${name}: the model provider returned 500`) : (o) => text(`${name} report: ${userText(o).toUpperCase()} is settled (${lookups} sources)`));
  const model = scripted(steps, 40);
  return tool({
    description: `delegate to ${name}`,
    inputSchema: z.object({ input: z.string() }),
    execute: async ({ input }) => {
      const r = await generateText({
        model,
        prompt: input,
        tools: { lookup: tool({ description: 'look something up', inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => { await sleep(20); return `notes on ${q}`; } }) },
        stopWhen: isStepCount(10),
        maxRetries: 0,
        telemetry: { functionId: name, integrations: [telemetry] },
      });
      return r.text;
    },
  });
}

const captureAll = captureOtlp;

async function orchestrate(steps: Step[], tools: ToolSet, telemetry: Telemetry): Promise<void> {
  await generateText({ model: scripted(steps, 30), prompt: 'compare the topics', tools, stopWhen: isStepCount(10), maxRetries: 0, telemetry: { functionId: 'orchestrator', integrations: [telemetry] } });
}

/**
 * Every scenario, in the legacy `ai.*` format (ai-sdk-legacy/), the GenAI format (ai-sdk-genai/)
 * and the GenAI format rewritten by `@arizeai/openinference-vercel` (ai-sdk-openinference/).
 */
export async function generateAiSdk(): Promise<void> {
  for (const [folder, legacy, captureOtlp] of [
    ['ai-sdk-legacy', true, captureAll],
    ['ai-sdk-genai', false, captureAll],
    ['ai-sdk-openinference', false, captureOpenInference],
  ] as const) {
    const t = telemetryFor(legacy);
    const w = (name: string, lookups: number, fails = false) => workerTool(name, lookups, t, fails);
    writeFixture(folder, 'parallel-swarm', await captureOtlp(() => orchestrate(
      [() => calls(['ask_alpha', 'c1', { input: 'alpha' }], ['ask_beta', 'c2', { input: 'beta' }], ['ask_gamma', 'c3', { input: 'gamma' }]), () => text('done')],
      { ask_alpha: w('alpha', 1), ask_beta: w('beta', 2), ask_gamma: w('gamma', 0) }, t)));
    writeFixture(folder, 'serial-collapse', await captureOtlp(() => orchestrate(
      [() => calls(['ask_alpha', 'c1', { input: 'alpha' }]), () => calls(['ask_beta', 'c2', { input: 'beta' }]), () => calls(['ask_gamma', 'c3', { input: 'gamma' }]), () => text('done')],
      { ask_alpha: w('alpha', 1), ask_beta: w('beta', 2), ask_gamma: w('gamma', 0) }, t)));
    writeFixture(folder, 'dependent-pipeline', await captureOtlp(() => orchestrate(
      [() => calls(['ask_alpha', 'c1', { input: 'alpha' }]), (o) => calls(['ask_beta', 'c2', { input: `check this: ${lastToolResult(o)}` }]), () => text('done')],
      { ask_alpha: w('alpha', 1), ask_beta: w('beta', 1) }, t)));
    writeFixture(folder, 'failing-subagent', await captureOtlp(() => orchestrate(
      [() => calls(['ask_alpha', 'c1', { input: 'alpha' }], ['ask_flaky', 'c2', { input: 'flaky' }]), () => text('done, one failed')],
      { ask_alpha: w('alpha', 1), ask_flaky: w('flaky', 1, true) }, t)));
    const leadModel = scripted([() => calls(['ask_delta', 'd1', { input: 'delta' }], ['ask_epsilon', 'd2', { input: 'epsilon' }]), () => text('lead report: delta and epsilon settled')], 30);
    const lead = tool({
      description: 'delegate to lead',
      inputSchema: z.object({ input: z.string() }),
      execute: async ({ input }) => (await generateText({ model: leadModel, prompt: input, tools: { ask_delta: w('delta', 1), ask_epsilon: w('epsilon', 1) }, stopWhen: isStepCount(10), maxRetries: 0, telemetry: { functionId: 'lead', integrations: [t] } })).text,
    });
    writeFixture(folder, 'nested-subagents', await captureOtlp(() => orchestrate(
      [() => calls(['ask_lead', 'c1', { input: 'lead the deep dive' }], ['ask_alpha', 'c2', { input: 'alpha' }]), () => text('done')],
      { ask_lead: lead, ask_alpha: w('alpha', 2) }, t)));
  }
}
