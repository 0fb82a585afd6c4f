/**
 * The span formats' names and titles, in detection order: light (no reader), so that
 * `@parl/traces/options` gives `--trace-format`'s choices and `parl trace`'s description without
 * loading the readers. The `satisfies` check of `registry.ts` ties each name to its definition.
 *
 * @module
 */

/** Each span format's name and its title in a list of formats ("LangSmith"), in detection order. */
export const SPAN_FORMAT_TITLES = {
  otlp: 'OpenTelemetry OTLP JSON',
  'openai-agents': 'OpenAI Agents SDK',
  langsmith: 'LangSmith',
  mastra: 'Mastra',
} as const;

/** A format read into spans (every concrete format but `parl`). */
export type SpanFormatName = keyof typeof SPAN_FORMAT_TITLES;
