/** Agent traces made with the real OpenTelemetry SDK: an orchestrator whose sub-agents run serially or in parallel. */
import { context, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ParlSpanProcessor, type TraceResult } from '@parl/traces';

/** Spans of `count` traces, and what @parl/traces' live processor made of each (the expected episodes). */
export async function agentTraces(count: number, rolloutOf: (i: number) => string | undefined = () => undefined): Promise<{ spans: ReadableSpan[]; expected: TraceResult[] }> {
  const expected: TraceResult[] = [];
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), new ParlSpanProcessor({ onResult: (r) => expected.push(r), onWarning: () => {} })] });
  const tracer = provider.getTracer('serve-test');
  for (let i = 0; i < count; i++) {
    const serial = i % 2 === 0;
    const t0 = Date.UTC(2025, 0, 1) + i * 60_000;
    const rollout = rolloutOf(i);
    const root = tracer.startSpan('invoke_agent boss', {
      startTime: t0,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'boss', ...(rollout === undefined ? {} : { 'parl.rollout_id': rollout }) },
    });
    const ctx = trace.setSpan(context.active(), root);
    tracer.startSpan('chat', { startTime: t0, attributes: { 'gen_ai.operation.name': 'chat' } }, ctx).end(t0 + 100);
    let t = t0 + 100;
    for (const name of ['a', 'b', 'c']) {
      const sub = tracer.startSpan(`invoke_agent ${name}`, { startTime: t, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': name } }, ctx);
      const subCtx = trace.setSpan(ctx, sub);
      tracer.startSpan('chat', { startTime: t + 1, attributes: { 'gen_ai.operation.name': 'chat' } }, subCtx).end(t + 50);
      sub.end(t + 100);
      if (serial) t += 100;
    }
    tracer.startSpan('chat', { startTime: t + 100, attributes: { 'gen_ai.operation.name': 'chat' } }, ctx).end(t + 200);
    root.end(t + 200);
  }
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  return { spans, expected };
}
