import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { context, trace } from '@opentelemetry/api';
import { ROLLOUT_ID_ATTRIBUTE } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { traceReportHtml } from '../src/index.js';
import { collect } from './support/collect.js';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

/**
 * Two episodes as the swarm writes them (real OpenTelemetry SDK, real OTLP JSON serializer): an
 * orchestrator `invoke_agent` root naming its rollout, its `chat` calls, and — in the second — one
 * sub-agent.
 */
function episodes(): { json: string; traceIds: string[] } {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
  const traceIds: string[] = [];
  [0, 1].forEach((k) => {
    const t = T0 + k * 100_000;
    const root = tracer.startSpan('invoke_agent orchestrator', { startTime: t, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'orchestrator', [ROLLOUT_ID_ATTRIBUTE]: `wide-s1-0/rollout-${k}`, 'parl.task.id': 'wide-s1-0' } }, context.active());
    traceIds.push(root.spanContext().traceId);
    const inRoot = trace.setSpan(context.active(), root);
    const chat = (at: number, parent = inRoot) => tracer.startSpan('chat m', { startTime: at, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm' } }, parent).end(at + 10);
    chat(t);
    if (k === 1) {
      const tool = tracer.startSpan('execute_tool assign_task', { startTime: t + 20, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'assign_task' } }, inRoot);
      const sub = tracer.startSpan('invoke_agent looker', { startTime: t + 20, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'looker' } }, trace.setSpan(inRoot, tool));
      chat(t + 20, trace.setSpan(inRoot, sub));
      sub.end(t + 40);
      tool.end(t + 41);
    }
    chat(t + 50);
    root.end(t + 60);
  });
  return { json: new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())), traceIds };
}

describe('parl trace on the swarm\'s spans (issue 29 item 12)', () => {
  it('keys each record by the rollout id its root span names, so it joins the rollout lines; the finding keeps the trace id', async () => {
    const { json, traceIds } = episodes();
    const { results } = await collect([json]);
    expect(results.map((r) => [r.record.id, r.finding.trace_id, r.traceId])).toEqual([
      ['wide-s1-0/rollout-0', traceIds[0], traceIds[0]],
      ['wide-s1-0/rollout-1', traceIds[1], traceIds[1]],
    ]);
  });

  it('keys a record by its trace id when no span names a rollout', async () => {
    const { json, traceIds } = episodes();
    const { results } = await collect([json.replaceAll(ROLLOUT_ID_ATTRIBUTE, 'other.attribute')]);
    expect(results.map((r) => r.record.id)).toEqual(traceIds);
  });

  it('the report says no sub-agent ran, not that sub-agents launched together ran together, for an episode without one', async () => {
    const { json } = episodes();
    const { results } = await collect([json]);
    const [none, one] = results.map((r) => traceReportHtml([{ record: r.record, finding: r.finding }]));
    expect(none).toContain('No sub-agent ran');
    expect(none).not.toContain('ran together');
    expect(one).toContain('Sub-agents launched together ran together.');
  });
});
