/**
 * The live processors on the real SDKs: the records and findings they produce in-process equal
 * what `readTraces` (`parl trace`) gives for the same spans exported to a file; memory is bounded.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addTraceProcessor, Agent } from '@openai/agents-core';
import { context, trace } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { LiveTraceAssembler, ParlSpanProcessor, ParlTracingProcessor, readOtlpSpan, type TraceResult } from '../src/index.js';
import { collect } from './support/collect.js';
import { otlpSpan } from './support/hand-spans.js';
import { captureRun, functionCall, message, scriptedModel, serialPipelineTool, subAgent } from './support/openai-agents-run.js';

describe('ParlSpanProcessor (OpenTelemetry JS SDK)', () => {
  it('gives the records and findings that parl trace gives for the exported spans, and holds no trace afterwards', async () => {
    const live: TraceResult[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'parl-live-'));
    const parl = new ParlSpanProcessor({ onResult: (r) => live.push(r), recordsFile: join(dir, 'records.jsonl'), findingsFile: join(dir, 'findings.jsonl'), onWarning: () => {} });
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), parl] });
    const tracer = provider.getTracer('live-test');
    // Two traces: one with two sub-agents launched one after the other in one turn, one parallel.
    for (const serial of [true, false]) {
      const t0 = Date.UTC(2025, 0, 1) + (serial ? 0 : 60_000);
      const root = tracer.startSpan('invoke_agent boss', { startTime: t0, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'boss' } });
      const ctx = trace.setSpan(context.active(), root);
      tracer.startSpan('chat', { startTime: t0, attributes: { 'gen_ai.operation.name': 'chat' } }, ctx).end(t0 + 100);
      let t = t0 + 100;
      for (const name of ['a', 'b']) {
        const sub = tracer.startSpan(`invoke_agent ${name}`, { startTime: t, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': name } }, ctx);
        const subCtx = trace.setSpan(ctx, sub);
        tracer.startSpan('chat', { startTime: t + 1, attributes: { 'gen_ai.operation.name': 'chat' } }, subCtx).end(t + 50);
        tracer.startSpan('chat', { startTime: t + 51, attributes: { 'gen_ai.operation.name': 'chat' } }, subCtx).end(t + 99);
        sub.end(t + 100);
        if (serial) t += 100;
      }
      tracer.startSpan('chat', { startTime: t + 100, attributes: { 'gen_ai.operation.name': 'chat' } }, ctx).end(t + 200);
      root.end(t + 200);
    }
    expect(live).toHaveLength(2);
    expect(parl.openTraces).toBe(0);
    const exported = new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans()));
    const { results } = await collect([`${exported}\n`], { ordering: 'unordered' });
    const byId = (rs: readonly TraceResult[]) => new Map(rs.map((r) => [r.traceId, { record: r.record, finding: r.finding }]));
    expect(byId(live)).toEqual(byId(results));
    // Serial: (1 + 2) + (0 + 2) + 1 = 6; parallel: (1 + 2) + 1 = 4.
    expect(live.map((r) => r.finding.critical_steps_as_run).sort()).toEqual([4, 6]);
    expect(readFileSync(join(dir, 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual(live.map((r) => r.record));
    expect(readFileSync(join(dir, 'findings.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    await provider.shutdown();
  });
});

describe('ParlTracingProcessor (OpenAI Agents JS SDK)', () => {
  it('gives the records and findings that parl trace gives for the exported items', async () => {
    const live: TraceResult[] = [];
    const parl = new ParlTracingProcessor({ onResult: (r) => live.push(r), onWarning: () => {} });
    addTraceProcessor(parl);
    const orchestrator = new Agent({
      name: 'orchestrator',
      instructions: 'Delegate.',
      tools: [
        serialPipelineTool('team', [subAgent('researcher', 2, 20), subAgent('writer', 1, 20)]),
        subAgent('checker', 1, 20).asTool({ toolName: 'check', toolDescription: 'check' }),
      ],
      model: scriptedModel([[functionCall('team', 'c1', { task: 'report' }), functionCall('check', 'c2', { input: 'facts' })], [message('final')]], 20),
    });
    const run = await captureRun(orchestrator, 'go');
    await parl.shutdown();
    const { results } = await collect([run.jsonl]);
    expect(live.map((r) => ({ record: r.record, finding: r.finding }))).toEqual(results.map((r) => ({ record: r.record, finding: r.finding })));
    expect(live[0]?.finding.serial_collapse).toBe(true);
    expect(parl.openTraces).toBe(0);
  });
});

describe('bounded memory', () => {
  const span = (trace: string, id: string, parent?: string) => readOtlpSpan(otlpSpan({ trace, id, ...(parent === undefined ? {} : { parent }), op: 'chat', start: 0, end: 1 }), 'test');

  it('drops a trace whose root never ends after the timeout, with a warning', () => {
    let now = 0;
    const warnings: string[] = [];
    const a = new LiveTraceAssembler({ timeoutMs: 1000, onWarning: (w) => warnings.push(w) }, () => now);
    a.add(span('t1', 'child', 'root'));
    now = 1500;
    a.add(span('t2', 'x', 'root2'));
    expect(a.openTraces).toBe(1);
    expect(warnings).toEqual(['trace t1 dropped: still open 1000 ms after its first span (its root never ended?)']);
  });

  it('times out each trace at its own deadline while spans keep coming, after the traces before it were completed', () => {
    let now = 0;
    const warnings: string[] = [];
    const a = new LiveTraceAssembler({ timeoutMs: 1000, onWarning: (w) => warnings.push(w) }, () => now);
    a.add(span('t1', 'child', 'root'));
    now = 500;
    a.add(span('t2', 'child', 'root'));
    a.complete('t1');
    now = 1200;
    a.add(span('t3', 'child', 'root'));
    expect(a.openTraces).toBe(2);
    now = 1499;
    a.add(span('t3', 'child2', 'root'));
    expect(a.openTraces).toBe(2);
    now = 1500;
    a.add(span('t3', 'child3', 'root'));
    expect(a.openTraces).toBe(1);
    now = 2200;
    a.add(span('t4', 'child', 'root'));
    expect(a.openTraces).toBe(1);
    expect(warnings.filter((w) => w.includes('still open'))).toEqual(['trace t2 dropped: still open 1000 ms after its first span (its root never ended?)', 'trace t3 dropped: still open 1000 ms after its first span (its root never ended?)']);
  });

  it('holds at most maxOpenTraces traces, dropping the oldest', () => {
    const warnings: string[] = [];
    const a = new LiveTraceAssembler({ maxOpenTraces: 3, onWarning: (w) => warnings.push(w) });
    for (let i = 0; i < 10; i++) a.add(span(`t${i}`, 'child', 'root'));
    expect(a.openTraces).toBe(3);
    expect(warnings).toHaveLength(7);
    expect(warnings[0]).toBe('trace t0 dropped: more than 3 traces open at once (maxOpenTraces)');
  });

  it('expire() drops stale traces without a new span, and onDropped names each dropped trace and why', () => {
    let now = 0;
    const dropped: [string, string][] = [];
    const a = new LiveTraceAssembler({ timeoutMs: 1000, maxOpenTraces: 2, onWarning: () => {}, onDropped: (id, why) => dropped.push([id, why]) }, () => now);
    a.add(span('t1', 'child', 'root'));
    a.add(span('t2', 'child', 'root'));
    a.add(span('t3', 'child', 'root'));
    now = 2000;
    expect(a.expire()).toBe(2);
    expect(a.openTraces).toBe(0);
    a.add(span('t4', 'child', 'root'));
    a.dropAll('stopping');
    expect(dropped).toEqual([['t1', 'capacity'], ['t2', 'timeout'], ['t3', 'timeout'], ['t4', 'shutdown']]);
  });

  it('rejects bad limits with a message naming the option', () => {
    expect(() => new LiveTraceAssembler({ timeoutMs: -1 })).toThrow('options.timeoutMs must be a number of milliseconds > 0, got -1');
    expect(() => new LiveTraceAssembler({ maxOpenTraces: 0 })).toThrow('options.maxOpenTraces must be an integer ≥ 1, got 0');
  });
});
