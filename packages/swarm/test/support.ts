/**
 * Test support: the AI SDK's own mock language model scripted turn by turn, an in-memory
 * OpenTelemetry SDK whose spans are serialised by the real OTLP JSON serializer, and
 * `@parl/traces`' reader on them.
 */
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { labelCriticalSteps, validateRecord } from '@parl/core';
import { readTraces } from '@parl/traces';
import { MockLanguageModelV3 } from 'ai/test';
import { DEFAULT_RETRY, LIMIT_PRESETS, scriptedLookupModel, type EpisodeSettings } from '../src/index.js';

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A tool call in a scripted reply. */
export type Call = readonly [name: string, args: Record<string, unknown> | string];

/** One scripted reply: tool calls, or the final text. */
export type Reply = readonly Call[] | string;

let ids = 0;

/** The reply a mock model gives. */
export function result(reply: Reply): LanguageModelV3GenerateResult {
  const content: LanguageModelV3Content[] =
    typeof reply === 'string'
      ? [{ type: 'text', text: reply }]
      : reply.map(([name, args]) => ({ type: 'tool-call', toolCallId: `call-${++ids}`, toolName: name, input: typeof args === 'string' ? args : JSON.stringify(args) }));
  return { content, finishReason: { unified: typeof reply === 'string' ? 'stop' : 'tool-calls', raw: undefined }, usage: USAGE, warnings: [] };
}

/** The AI SDK's mock model answering `replies` in order (the last one repeated). */
export function scriptedMock(replies: readonly Reply[], modelId = 'mock-orchestrator'): MockLanguageModelV3 {
  let n = 0;
  return new MockLanguageModelV3({
    modelId,
    doGenerate: async () => result(replies[Math.min(n++, replies.length - 1)] as Reply),
  });
}

/** The results of the tool calls in a prompt, in order. */
export function toolTexts(options: LanguageModelV3CallOptions): string[] {
  return options.prompt
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.content.map((p) => (p.type === 'tool-result' && p.output.type === 'text' ? p.output.value : '')));
}

/** The system prompt of a call. */
export function systemOf(options: LanguageModelV3CallOptions): string {
  const m = options.prompt.find((x) => x.role === 'system');
  return m?.role === 'system' ? m.content : '';
}

/** An orchestrator that answers with `reply(callIndex, options)`; its final answer can quote what its tools returned. */
export function orchestratorFrom(reply: (call: number, options: LanguageModelV3CallOptions) => Reply): MockLanguageModelV3 {
  return mockWith((options, n) => result(reply(n, options)), 'mock-orchestrator');
}

/** The AI SDK's mock model answering with `answer(options, callIndex)`. */
export function mockWith(answer: (options: LanguageModelV3CallOptions, call: number) => Promise<LanguageModelV3GenerateResult> | LanguageModelV3GenerateResult, modelId = 'mock-subagent'): MockLanguageModelV3 {
  let n = 0;
  return new MockLanguageModelV3({ modelId, doGenerate: async (options) => answer(options, n++) });
}

/** An in-memory OpenTelemetry SDK. */
export function memoryTracing(): { tracer: ReturnType<BasicTracerProvider['getTracer']>; otlpJson(): string; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    tracer: provider.getTracer('@parl/swarm-test'),
    exporter,
    otlpJson: () => new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())),
  };
}

/** Settings for a test episode. */
export function settingsWith(overrides: Partial<EpisodeSettings>): EpisodeSettings {
  return {
    orchestrator: scriptedMock(['done']),
    subagentModel: scriptedLookupModel(),
    concurrency: 8,
    maxSubagents: 100,
    limits: LIMIT_PRESETS.default,
    budget: undefined,
    onBudget: 'fail',
    trainingStep: undefined,
    reward: {},
    retry: { ...DEFAULT_RETRY, baseDelayMs: 1 },
    singleAgent: false,
    tracer: undefined,
    ...overrides,
  };
}

/** Critical steps, total steps and sub-agents of a record, as core computes them (what `parl critical-steps` prints). */
export function numbersOf(record: object): { critical_steps: number; total_steps: number; num_subagents: number } {
  const stages = (record as { stages: unknown }).stages;
  const { critical_steps, total_steps } = labelCriticalSteps({ stages });
  return { critical_steps, total_steps, num_subagents: validateRecord({ stages }).numSubagents };
}

/** What `parl trace` reads from the exported spans: the one trace's record, and its numbers. */
export async function readBack(otlpJson: string): Promise<{ record: Record<string, unknown>; numbers: ReturnType<typeof numbersOf> }> {
  const results = [];
  for await (const r of readTraces([otlpJson], { onWarning: () => {} })) results.push(r);
  if (results.length !== 1) throw new Error(`expected one trace, got ${results.length}`);
  const record = (results[0] as { record: Record<string, unknown> }).record;
  return { record, numbers: numbersOf(record) };
}
