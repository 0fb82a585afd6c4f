/**
 * Model calls derived where a format does not record them one by one. VoltAgent writes one
 * `llm:*` span per agent run: the run's model responses are derived from what it does record,
 * one response per wave of the agent's tool calls (tool calls that overlap in time were asked for
 * by one response) plus the final answer. The finding says so in `steps_derived`.
 *
 * @module
 */
import { overlapWaves } from '@parl/core';
import { VOLTAGENT_RUN_KIND } from '../formats/otlp.js';
import type { TraceSpan } from '../span.js';

/** What `steps_derived` says in a finding whose model calls were derived. */
export const VOLTAGENT_DERIVED_STEPS =
  'VoltAgent records one llm span per agent run, not one per model call: model calls are derived as one response per wave of the agent\'s tool calls (calls that overlap in time), plus the final answer';

/** The spans with derived model calls in place of run-covering ones, and whether any was derived. */
export interface DerivedSpans {
  /** The trace's spans: a run-covering span becomes role `other`, followed by its derived calls. */
  readonly spans: readonly TraceSpan[];
  /** The note for the finding, when a call was derived. */
  readonly note: string | undefined;
}

/**
 * Replace each VoltAgent run-covering `llm:*` span by its derived model calls: call k runs from
 * the end of wave k − 1 (or the run's start) to the start of wave k, the final answer from the end
 * of the last wave to the run's end, so that each wave's sub-agents fall in the turn of the call
 * that launched them. The waves are the agent's own tool calls (children of its agent span that
 * started within the run), in start order, split where one starts at or after every earlier one
 * ended. Work is O(spans) plus a sort of each run's tool calls.
 */
export function deriveModelCalls(spans: readonly TraceSpan[]): DerivedSpans {
  if (!spans.some((s) => s.rawKind === VOLTAGENT_RUN_KIND)) return { spans, note: undefined };
  const toolsByParent = new Map<string, TraceSpan[]>();
  for (const span of spans) {
    if (span.role !== 'tool' || span.parentId === undefined) continue;
    let list = toolsByParent.get(span.parentId);
    if (list === undefined) toolsByParent.set(span.parentId, (list = []));
    list.push(span);
  }
  const out: TraceSpan[] = [];
  for (const span of spans) {
    if (span.rawKind !== VOLTAGENT_RUN_KIND) {
      out.push(span);
      continue;
    }
    out.push({ ...span, role: 'other' });
    const tools = (span.parentId === undefined ? [] : (toolsByParent.get(span.parentId) ?? [])).filter((t) => t.startMs >= span.startMs && t.startMs <= span.endMs);
    // `@parl/core`'s overlap rule: a new wave starts with a call that starts at or after every earlier one ended.
    const waves = overlapWaves(tools.map((t) => ({ start: t.startMs, end: t.endMs }))).map((wave) => ({
      start: Math.min(...wave.map((i) => (tools[i] as TraceSpan).startMs)),
      end: Math.max(...wave.map((i) => (tools[i] as TraceSpan).endMs)),
    }));
    let from = span.startMs;
    waves.forEach((wave, k) => {
      out.push(derivedCall(span, k, from, wave.start, false));
      from = wave.end;
    });
    out.push(derivedCall(span, waves.length, Math.min(from, span.endMs), span.endMs, span.error));
  }
  return { spans: out, note: VOLTAGENT_DERIVED_STEPS };
}

function derivedCall(run: TraceSpan, k: number, startMs: number, endMs: number, error: boolean): TraceSpan {
  return {
    traceId: run.traceId,
    spanId: `${run.spanId}#response${k + 1}`,
    parentId: run.parentId,
    name: `${run.name} (derived response ${k + 1})`,
    role: 'llm',
    rawKind: 'derived',
    startMs,
    endMs: Math.max(startMs, endMs),
    error,
    format: run.format,
    location: run.location,
    warnings: [],
  };
}
