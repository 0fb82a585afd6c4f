/**
 * A scripted two-level agent run instrumented with the real OpenTelemetry JS SDK and GenAI
 * semantic-convention attributes, exported in memory and serialised by the real OTLP JSON
 * serializer. A virtual clock gives every span an exact start and end.
 */
import { context, SpanStatusCode, trace, type Context, type Tracer } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** One scripted sub-agent. */
export interface ScriptedSubAgent {
  readonly name: string;
  /** LLM calls it makes, each `LLM_MS` long. */
  readonly llmCalls: number;
  /** Tool calls (at most one after each LLM call), each `TOOL_MS` long. */
  readonly toolCalls: number;
  /** Ends in error. */
  readonly fails?: boolean;
}

/** One orchestrator turn: an LLM call, then the sub-agents it launches. */
export interface ScriptedTurn {
  readonly subAgents: readonly ScriptedSubAgent[];
  /** `parallel`: all start together; `serial`: each starts when the previous ended. */
  readonly launch: 'parallel' | 'serial';
}

export const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
export const LLM_MS = 1000;
export const TOOL_MS = 500;

/** Wall time of a sub-agent: its LLM calls then its tool calls, back to back. */
export function subAgentMs(s: ScriptedSubAgent): number {
  return s.llmCalls * LLM_MS + s.toolCalls * TOOL_MS;
}

function runSubAgent(tracer: Tracer, parent: Context, s: ScriptedSubAgent, start: number): number {
  const tool = tracer.startSpan(
    `execute_tool ${s.name}`,
    { startTime: start, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': `ask_${s.name}` } },
    parent,
  );
  const agent = tracer.startSpan(
    `invoke_agent ${s.name}`,
    {
      startTime: start,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': s.name, 'gen_ai.agent.id': `agent_${s.name}`, 'gen_ai.provider.name': 'openai' },
    },
    trace.setSpan(parent, tool),
  );
  const inside = trace.setSpan(parent, agent);
  if (s.toolCalls > s.llmCalls) throw new Error('script: at most one tool call per LLM call');
  let t = start;
  for (let i = 0; i < s.llmCalls; i++) {
    // Older GenAI conventions on the sub-agents' LLM calls: gen_ai.system, no operation name.
    const llm = tracer.startSpan('openai.chat', { startTime: t, attributes: { 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' } }, inside);
    t += LLM_MS;
    llm.end(t);
    if (i < s.toolCalls) {
      const call = tracer.startSpan('execute_tool search', { startTime: t, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search' } }, inside);
      t += TOOL_MS;
      call.end(t);
    }
  }
  if (s.fails === true) {
    agent.setAttribute('error.type', 'SubAgentFailed');
    agent.setStatus({ code: SpanStatusCode.ERROR, message: 'sub-agent failed' });
  }
  agent.end(t);
  tool.end(t);
  return t;
}

/**
 * Run the script; returns the OTLP JSON export request (as the OTLP/HTTP JSON exporter would send
 * it), the trace id and the finished spans (for other serialisers).
 */
export function otelAgentRun(turns: readonly ScriptedTurn[], startAt = T0): { json: string; traceId: string; spans: ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('parl-traces-test', '1.0.0');
  const root = tracer.startSpan('invoke_agent orchestrator', {
    startTime: startAt,
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'orchestrator', 'gen_ai.provider.name': 'openai' },
  });
  const ctx = trace.setSpan(context.active(), root);
  let t = startAt;
  for (const turn of [...turns, { subAgents: [], launch: 'parallel' as const }]) {
    const chat = tracer.startSpan('chat gpt-4o', { startTime: t, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o' } }, ctx);
    t += LLM_MS;
    chat.end(t);
    let end = t;
    for (const s of turn.subAgents) {
      const finished = runSubAgent(tracer, ctx, s, turn.launch === 'parallel' ? t : end);
      end = Math.max(end, finished);
    }
    t = end;
  }
  root.end(t);
  const traceId = root.spanContext().traceId;
  const json = new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans()));
  return { json, traceId, spans: exporter.getFinishedSpans() };
}
