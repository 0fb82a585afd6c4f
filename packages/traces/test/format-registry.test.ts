/**
 * The trace-format registry (issue 31): one definition per format, listed once; the messages that
 * list formats or model-call shapes are built from it and match what the readers count.
 */
import { readFileSync } from 'node:fs';
import { ParlInputError } from '@parl/core';
import { describe, expect, it } from 'vitest';
import {
  AI_SDK_OPERATION_ROLES,
  decodeUnit,
  LANGSMITH_RUN_ROLES,
  MASTRA_SPAN_ROLES,
  modelCallShapes,
  NoStepInformationError,
  OPENAI_AGENTS_SPAN_ROLES,
  OTEL_OPERATION_ROLES,
  SPAN_FORMAT_TITLES,
  SPAN_FORMATS,
  SPAN_KIND_ROLES,
  TRACE_FORMAT_REGISTRY,
  TRACE_FORMATS,
  TraceInputError,
  traceToResult,
  withTraceFormats,
  type TraceSpan,
} from '../src/index.js';
import { VOLTAGENT_SPAN_TYPE_ROLES } from '../src/formats/otlp.js';
import type { SpanFormatName } from '../src/formats/format-names.js';
import { orList, type TraceFormatDefinition } from '../src/formats/trace-format.js';
import { otlpSpan } from './support/hand-spans.js';
import { TOY_FORMAT } from './support/toy-format.js';

function spansOf(value: unknown, formats?: Parameters<typeof withTraceFormats>[0]): TraceSpan[] {
  return decodeUnit(value, 'test', 'auto', formats === undefined ? undefined : withTraceFormats(formats)).flatMap((item) => {
    if (item.kind !== 'span') throw new Error(`not a span: ${JSON.stringify(item)}`);
    if (item.result instanceof TraceInputError) throw item.result;
    return [item.result];
  });
}

/** The message of the error for a trace with an agent and no model call. */
function noModelCallMessage(): string {
  try {
    traceToResult('t', spansOf(otlpSpan({ trace: 't', id: 'a', op: 'invoke_agent', agent: 'root', start: 0, end: 10 })));
  } catch (err) {
    if (err instanceof NoStepInformationError) return err.message;
    throw err;
  }
  throw new Error('a trace without a model call became a record');
}

const attr = (key: string, value: string): unknown => ({ key, value: { stringValue: value } });

describe('trace-format registry', () => {
  it('lists every concrete format but parl, in TRACE_FORMATS order, each under its own name and title', () => {
    expect(Object.keys(TRACE_FORMAT_REGISTRY)).toEqual(TRACE_FORMATS.filter((f) => f !== 'auto' && f !== 'parl'));
    expect(Object.keys(TRACE_FORMAT_REGISTRY)).toEqual(Object.keys(SPAN_FORMAT_TITLES));
    for (const [name, format] of Object.entries(TRACE_FORMAT_REGISTRY)) {
      expect(format.name).toBe(name);
      expect(format.title).toBe(SPAN_FORMAT_TITLES[name as keyof typeof SPAN_FORMAT_TITLES]);
    }
    expect(SPAN_FORMATS.map((f) => f.name)).toEqual(Object.keys(TRACE_FORMAT_REGISTRY));
  });

  it('the "no recognised model call" error names exactly the shapes the readers count', () => {
    const shapes = modelCallShapes();
    expect(shapes).toEqual(SPAN_FORMATS.flatMap((f) => f.modelCalls));
    expect(noModelCallMessage()).toContain(`no recognised model call (${orList(shapes)}), so no record is written`);
    const text = shapes.join('\n');
    // Every key a reader's role table maps to a model call is named.
    for (const table of [OTEL_OPERATION_ROLES, AI_SDK_OPERATION_ROLES, LANGSMITH_RUN_ROLES, OPENAI_AGENTS_SPAN_ROLES, MASTRA_SPAN_ROLES, VOLTAGENT_SPAN_TYPE_ROLES]) {
      for (const [key, role] of Object.entries(table)) if (role === 'llm') expect(text).toContain(key);
    }
    for (const [kind, role] of Object.entries(SPAN_KIND_ROLES)) if (role === 'llm') expect(text).toContain(kind.toUpperCase());
    // The drift issue 31 found: model_generation is not counted; call_llm, doGenerate and llm:* are.
    expect(text).not.toContain('model_generation');
    expect(text).toContain('call_llm');
    expect(text).toContain('ai.generateText.doGenerate');
    expect(text).toContain('llm:*');
  });

  it('the shapes it names are model calls to the readers, and Mastra model_generation is not', () => {
    const adk = readFileSync(new URL('./fixtures/frameworks/google-adk/serial-collapse.jsonl', import.meta.url), 'utf8').split('\n')[0] as string;
    const callLlm = spansOf(JSON.parse(adk)).filter((s) => s.name === 'call_llm');
    expect(callLlm.length).toBeGreaterThan(0);
    expect(callLlm.every((s) => s.role === 'llm')).toBe(true);
    const doGenerate = spansOf(otlpSpan({ id: 'g', start: 0, end: 1, extraAttributes: [attr('ai.operationId', 'ai.generateText.doGenerate')] }));
    expect(doGenerate[0]?.role).toBe('llm');
    const volt = spansOf(otlpSpan({ id: 'v', start: 0, end: 1, extraAttributes: [attr('span.type', 'llm'), attr('entity.type', 'agent')] }));
    expect(volt[0]?.role).toBe('llm');
    const mastra = (id: string, type: string, parentSpanId: string | null): Record<string, unknown> => ({
      id,
      traceId: 'm',
      type,
      name: id,
      startTime: '2026-01-01T00:00:00.000Z',
      endTime: '2026-01-01T00:00:01.000Z',
      parentSpanId,
    });
    const generationOnly = spansOf([mastra('run', 'agent_run', null), mastra('gen', 'model_generation', 'run')]);
    expect(generationOnly.map((s) => s.role)).toEqual(['agent', 'other']);
    expect(() => traceToResult('m', generationOnly)).toThrow(NoStepInformationError);
    const withInference = [...generationOnly, ...spansOf(mastra('inf', 'model_inference', 'gen'))];
    expect(traceToResult('m', withInference).record.stages).toEqual([{ main_steps: 1, sub_steps: [] }]);
  });

  it('messages that list the formats are built from the registry', () => {
    const [unrecognised] = decodeUnit({ hello: 1 }, 'line 1', 'auto');
    expect(unrecognised?.kind).toBe('unrecognised');
    const message = unrecognised?.kind === 'unrecognised' ? unrecognised.message : '';
    for (const format of SPAN_FORMATS) expect(message).toContain(format.shape);
    const [forced] = decodeUnit({ hello: 1 }, 'line 1', 'mastra');
    expect(forced?.kind === 'error' ? forced.error.message : '').toContain(TRACE_FORMAT_REGISTRY.mastra.expected);
  });

  it('a format added through withTraceFormats is detected and read into a record (CONTRIBUTING "Adding a trace format")', () => {
    const toySpans = [
      { toy: 'tt/root', up: null, what: 'agent', from: 0, to: 100 },
      { toy: 'tt/m1', up: 'root', what: 'model', from: 1, to: 10 },
      { toy: 'tt/sub', up: 'root', what: 'agent', from: 10, to: 60 },
      { toy: 'tt/m2', up: 'sub', what: 'model', from: 11, to: 20 },
      { toy: 'tt/m3', up: 'sub', what: 'model', from: 21, to: 30 },
      { toy: 'tt/m4', up: 'root', what: 'model', from: 61, to: 70 },
    ];
    // Without it the toy spans are JSON no format recognises.
    expect(decodeUnit(toySpans[0], 'line 1', 'auto')[0]?.kind).toBe('unrecognised');
    const spans = spansOf(toySpans, [TOY_FORMAT]);
    expect(spans.map((s) => s.format)).toEqual(Array(6).fill('toy'));
    expect(traceToResult('tt', spans).record).toEqual({
      id: 'tt',
      stages: [
        { main_steps: 1, sub_steps: [{ steps: 2, finished: true }] },
        { main_steps: 1, sub_steps: [] },
      ],
    });
    const [forced] = decodeUnit({ hello: 1 }, 'line 1', 'toy', withTraceFormats([TOY_FORMAT]));
    expect(forced?.kind === 'error' ? forced.error.message : '').toContain(TOY_FORMAT.expected);
  });

  it('the registry type rejects a missing entry and an entry under the wrong name (checked by tsc: pnpm typecheck)', () => {
    type Registry = { readonly [Name in SpanFormatName]: TraceFormatDefinition<Name> };
    const { mastra, ...withoutMastra } = TRACE_FORMAT_REGISTRY;
    // @ts-expect-error a format of SPAN_FORMAT_TITLES without its definition
    const missing: Registry = withoutMastra;
    // @ts-expect-error a definition under another format's name
    const misnamed: Registry = { ...TRACE_FORMAT_REGISTRY, langsmith: mastra };
    expect(Object.keys(missing)).not.toContain('mastra');
    expect(misnamed.langsmith.name).toBe('mastra');
  });

  it('withTraceFormats refuses a name that is taken', () => {
    expect(() => withTraceFormats([{ ...TOY_FORMAT, name: 'otlp' }])).toThrow(
      'formats[0].name must be a trace format name not already defined (defined: auto, parl, otlp, openai-agents, langsmith, mastra), got "otlp"',
    );
    expect(() => withTraceFormats([TOY_FORMAT, { ...TOY_FORMAT }])).toThrow(/^formats\[1\]\.name must be .*toy\), got "toy"$/);
    expect(() => withTraceFormats([{ ...TOY_FORMAT, name: 'parl' }])).toThrow(ParlInputError);
  });
});
