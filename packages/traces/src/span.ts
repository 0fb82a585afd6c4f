/**
 * The format-independent span that every reader produces and the mapping consumes.
 *
 * @module
 */
import type { ConcreteTraceFormat } from './options.js';

/**
 * What a span stands for in the PARL mapping:
 * - `agent`: an agent run (OTel `invoke_agent`, OpenAI Agents `agent`, the LangSmith root run);
 * - `llm`: one LLM call (OTel `chat` / `text_completion` / `generate_content`, OpenAI Agents
 *   `generation` / `response`, LangSmith `llm`);
 * - `tool`: one tool call (OTel `execute_tool`, OpenAI Agents `function`, LangSmith `tool`);
 * - `handoff`: an OpenAI Agents handoff;
 * - `other`: anything else (kept for the tree, counts for nothing).
 */
export type SpanRole = 'agent' | 'llm' | 'tool' | 'handoff' | 'other';

/** One span of a trace, normalised from any supported format. */
export interface TraceSpan {
  /** The trace it belongs to. */
  readonly traceId: string;
  /** Its own id, unique within the trace. */
  readonly spanId: string;
  /** Its parent's id; undefined for a root span. */
  readonly parentId: string | undefined;
  /** A readable name (agent name, tool name, span name). */
  readonly name: string;
  /** What it stands for. */
  readonly role: SpanRole;
  /** The format's own kind (`gen_ai.operation.name`, `span_data.type`, `run_type`); `""` when none. */
  readonly rawKind: string;
  /** Start time, milliseconds since the Unix epoch. */
  readonly startMs: number;
  /** End time, milliseconds since the Unix epoch. */
  readonly endMs: number;
  /** True when the span ended in error. */
  readonly error: boolean;
  /** The format it was read from. */
  readonly format: ConcreteTraceFormat;
  /** Where it was read (`line 12`, `document span 40`), for error messages. */
  readonly location: string;
  /** Warnings raised while reading it (unknown attributes, unknown operation names). */
  readonly warnings: readonly string[];
}

/**
 * A short, unambiguous label for a span in messages: `span 5b8aa5a2d2c872e8 ("researcher")`.
 */
export function spanLabel(span: Pick<TraceSpan, 'spanId' | 'name'>): string {
  return span.name === '' ? `span ${span.spanId}` : `span ${span.spanId} (${JSON.stringify(span.name)})`;
}
