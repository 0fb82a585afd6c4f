/**
 * The trace formats, listed once. Detection tries them in this order; everything that names
 * formats (detection, `--trace-format` errors, tree errors, the "no recognised model call" warning,
 * `parl trace`'s description) reads this list. A new format is its file under `formats/` and one
 * line here, with its name and title in `format-names.ts` (light, for `@parl/traces/options`); the
 * `satisfies` check fails to compile until every name there has its entry here, and rejects an
 * entry whose name is not one of them or whose definition has another name.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { LANGSMITH_FORMAT } from './langsmith.js';
import { MASTRA_FORMAT } from './mastra.js';
import { OPENAI_AGENTS_FORMAT } from './openai-agents.js';
import { OTLP_FORMAT } from './otlp.js';
import type { SpanFormatName } from './format-names.js';
import type { TraceFormatDefinition } from './trace-format.js';

/** Each span format's definition, keyed by its name, in detection order. */
export const TRACE_FORMAT_REGISTRY = {
  otlp: OTLP_FORMAT,
  'openai-agents': OPENAI_AGENTS_FORMAT,
  langsmith: LANGSMITH_FORMAT,
  mastra: MASTRA_FORMAT,
} as const satisfies { readonly [Name in SpanFormatName]: TraceFormatDefinition<Name> };

/** The span formats in detection order: {@link TRACE_FORMAT_REGISTRY}'s values. */
export const SPAN_FORMATS: readonly TraceFormatDefinition[] = Object.values(TRACE_FORMAT_REGISTRY);

/**
 * The formats a reader tries: the built-in ones, then `extra` (a format of one's own, tried last;
 * see CONTRIBUTING.md "Adding a trace format"). A name may appear once.
 *
 * @throws `ParlInputError` (from `@parl/core`) naming the format whose name is already defined
 * @example
 * ```ts
 * withTraceFormats([]).map((f) => f.name); // ['otlp', 'openai-agents', 'langsmith', 'mastra']
 * ```
 */
export function withTraceFormats(extra: readonly TraceFormatDefinition[]): readonly TraceFormatDefinition[] {
  const names = new Set<string>(['auto', 'parl', ...SPAN_FORMATS.map((format) => format.name)]);
  extra.forEach((format, i) => {
    if (names.has(format.name)) {
      throw new ParlInputError(`formats[${i}].name`, format.name, `a trace format name not already defined (defined: ${[...names].join(', ')})`);
    }
    names.add(format.name);
  });
  return [...SPAN_FORMATS, ...extra];
}

/** The definition of the span format `name` among `formats`, or undefined (`parl`, or an unknown name). */
export function formatNamed(name: string, formats: readonly TraceFormatDefinition[] = SPAN_FORMATS): TraceFormatDefinition | undefined {
  return formats.find((format) => format.name === name);
}
