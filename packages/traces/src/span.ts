/**
 * The format-independent span that every reader produces and the mapping consumes.
 *
 * @module
 */
import { exchangedText } from './internal/exchanged-text.js';
import type { ConcreteTraceFormat } from './options.js';

/**
 * What a span stands for in the PARL mapping:
 * - `agent`: an agent run (OTel `invoke_agent`, OpenAI Agents `agent`, the LangSmith root run);
 * - `llm`: one LLM call (OTel `chat` / `text_completion` / `generate_content`, OpenAI Agents
 *   `generation` / `response`, LangSmith `llm`);
 * - `tool`: one tool call (OTel `execute_tool`, OpenAI Agents `function`, LangSmith `tool`);
 * - `handoff`: an OpenAI Agents handoff;
 * - `chain`: a chain or graph run (LangSmith `chain`, OpenInference `CHAIN`): it stands for an
 *   agent when it is a root or directly under a tool call and the trace has no agent span, else
 *   for nothing;
 * - `other`: anything else (kept for the tree, counts for nothing).
 *
 * Model calls nested in a model call of the same agent (an OpenAI Agents `response` span inside
 * its `turn` span) are one model call: only the innermost counts.
 */
export type SpanRole = 'agent' | 'llm' | 'tool' | 'handoff' | 'chain' | 'other';

/** Captured message content is kept up to this many characters per span and direction. */
export const MAX_CONTENT_CHARS = 4096;

/**
 * Captured content as text for the independence check: the text the agents exchanged (message
 * contents, tool arguments and results), taken out of the framework's envelope by
 * `exchangedText`, cut to {@link MAX_CONTENT_CHARS}. Undefined for absent, null or empty
 * content, and for content that is all envelope.
 */
export function contentText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return exchangedText(value, MAX_CONTENT_CHARS);
}

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
  /** Captured input content (prompt, tool arguments), when the format carries it (see {@link contentText}). */
  readonly input?: string;
  /** Captured output content (answer, tool result), when the format carries it. */
  readonly output?: string;
  /** The rollout id the span names (OTLP attribute `parl.rollout_id`, `@parl/core`'s `ROLLOUT_ID_ATTRIBUTE`), when it names one. */
  readonly rolloutId?: string;
}

/**
 * A short, unambiguous label for a span in messages: `span 5b8aa5a2d2c872e8 ("researcher")`.
 */
export function spanLabel(span: Pick<TraceSpan, 'spanId' | 'name'>): string {
  return span.name === '' ? `span ${span.spanId}` : `span ${span.spanId} (${JSON.stringify(span.name)})`;
}
