/**
 * The docs' table of trace formats, rendered from the registry: which `--trace-format` value reads
 * what, and which spans count as model calls and tool calls. `docs/traces.md` holds it between
 * `<!-- options: trace-formats -->` markers (`@parl/cli`'s docs sync rewrites it; a test fails when
 * it is stale).
 *
 * @module
 */
import { SPAN_FORMATS } from './registry.js';
import type { TraceFormatDefinition } from './trace-format.js';

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/**
 * A Markdown table with one row per trace format, ending in a newline.
 *
 * @param formats - the formats (default: the registry's)
 * @example
 * ```ts
 * traceFormatsMarkdown().split('\n')[0]; // '| `--trace-format` | reads | a model call is | a tool call is |'
 * ```
 */
export function traceFormatsMarkdown(formats: readonly TraceFormatDefinition[] = SPAN_FORMATS): string {
  const rows = formats.map(
    (f) => `| \`${f.name}\` | ${cell(f.title)} | ${f.modelCalls.map(cell).join('; ')} | ${f.toolCalls.map(cell).join('; ')} |`,
  );
  return ['| `--trace-format` | reads | a model call is | a tool call is |', '| --- | --- | --- | --- |', ...rows, ''].join('\n');
}
