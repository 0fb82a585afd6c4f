/**
 * The GenAI conventions of the swarm's spans (issue 36.6): the default shape, and the latest
 * (`OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`: `create_subagent` is a
 * `create_agent` span); `parl trace` reads both back to the live record; the spans' resource names
 * the service.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSuite, openSpanCapture, runEpisode } from '../src/index.js';
import { genAiConventionsOf } from '../src/telemetry/gen-ai-conventions.js';
import { memoryTracing, numbersOf, orchestratorFrom, readBack, settingsWith, toolTexts } from './support.js';

const saved = { optIn: process.env['OTEL_SEMCONV_STABILITY_OPT_IN'], service: process.env['OTEL_SERVICE_NAME'] };
afterEach(() => {
  for (const [key, value] of [['OTEL_SEMCONV_STABILITY_OPT_IN', saved.optIn], ['OTEL_SERVICE_NAME', saved.service]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('OTEL_SEMCONV_STABILITY_OPT_IN', () => {
  it('asks for the latest conventions when its comma-separated list holds gen_ai_latest_experimental', () => {
    expect(genAiConventionsOf({})).toBe('default');
    expect(genAiConventionsOf({ OTEL_SEMCONV_STABILITY_OPT_IN: 'http' })).toBe('default');
    expect(genAiConventionsOf({ OTEL_SEMCONV_STABILITY_OPT_IN: 'gen_ai_latest_experimental' })).toBe('latest');
    expect(genAiConventionsOf({ OTEL_SEMCONV_STABILITY_OPT_IN: 'http, gen_ai_latest_experimental ,database' })).toBe('latest');
    expect(genAiConventionsOf({ OTEL_SEMCONV_STABILITY_OPT_IN: 'gen_ai_latest_experimental_x' })).toBe('default');
  });
});

async function episodeSpans(): Promise<{ spans: ReadableSpan[]; parity: boolean; record: object; back: Awaited<ReturnType<typeof readBack>> }> {
  const [task] = generateSuite('wide', { tasks: 1, seed: 1, entities: 2, attributes: 1 });
  if (task === undefined) throw new Error('no task');
  const entities = task.prompt.match(/entities (.*), give/)?.[1]?.split(', ') ?? [];
  const attribute = task.prompt.match(/give its (\w+)\./)?.[1] ?? '';
  const tracing = memoryTracing();
  const orchestrator = orchestratorFrom((n, options) => {
    if (n === 0) return [['create_subagent', { name: 'looker', system_prompt: 'You look things up.' }]];
    if (n === 1) return entities.map((e) => ['assign_task', { agent: 'looker', prompt: `Find the ${attribute} of ${e}.` }] as const);
    return toolTexts(options).filter((t) => t.includes('|')).join('\n');
  });
  const { record } = await runEpisode(task, settingsWith({ orchestrator, tracer: tracing.tracer }));
  const back = await readBack(tracing.otlpJson());
  return { spans: tracing.exporter.getFinishedSpans(), parity: JSON.stringify(back.numbers) === JSON.stringify(numbersOf(record)), record, back };
}

describe('the spans of an episode that defines a sub-agent and runs it twice', () => {
  it('by default: create_subagent is an execute_tool span; parl trace reads the live record back', async () => {
    delete process.env['OTEL_SEMCONV_STABILITY_OPT_IN'];
    const { spans, record, back } = await episodeSpans();
    const names = spans.map((s) => s.name);
    expect(names).toContain('execute_tool create_subagent');
    expect(names.filter((n) => n.startsWith('create_agent'))).toEqual([]);
    expect(names.filter((n) => n === 'invoke_agent looker')).toHaveLength(2);
    expect(back.numbers).toEqual(numbersOf(record));
    expect(back.record['stages']).toEqual((record as { stages: unknown }).stages);
  });

  it('with gen_ai_latest_experimental: create_subagent is a create_agent span naming the sub-agent and its model; parl trace reads it back the same', async () => {
    process.env['OTEL_SEMCONV_STABILITY_OPT_IN'] = 'gen_ai_latest_experimental';
    const { spans, record, back } = await episodeSpans();
    const names = spans.map((s) => s.name);
    expect(names).not.toContain('execute_tool create_subagent');
    const created = spans.filter((s) => s.name === 'create_agent looker');
    expect(created).toHaveLength(1);
    const [span] = created as [ReadableSpan];
    expect(span.attributes).toEqual({ 'gen_ai.operation.name': 'create_agent', 'gen_ai.agent.name': 'looker', 'gen_ai.provider.name': 'parl', 'gen_ai.request.model': 'scripted-lookup' });
    const orchestrator = spans.find((s) => s.name === 'invoke_agent orchestrator');
    expect(span.parentSpanContext?.spanId).toBe(orchestrator?.spanContext().spanId);
    expect(names).toContain('execute_tool assign_task');
    expect(names.filter((n) => n === 'invoke_agent looker')).toHaveLength(2);
    expect(back.numbers).toEqual(numbersOf(record));
    expect(back.record['stages']).toEqual((record as { stages: unknown }).stages);
  });
});

describe("the captured spans' resource", () => {
  async function serviceName(): Promise<unknown> {
    const capture = await openSpanCapture();
    capture.tracer.startSpan('x').end();
    const request = JSON.parse(capture.take() ?? '{}') as { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] } }[] };
    return request.resourceSpans[0]?.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
  }

  it('names the service parl-swarm, or what OTEL_SERVICE_NAME says; never unknown_service', async () => {
    delete process.env['OTEL_SERVICE_NAME'];
    expect(await serviceName()).toBe('parl-swarm');
    process.env['OTEL_SERVICE_NAME'] = 'my-trainer';
    expect(await serviceName()).toBe('my-trainer');
  });
});
