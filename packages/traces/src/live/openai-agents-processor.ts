/**
 * `ParlTracingProcessor`: an OpenAI Agents SDK `TracingProcessor` that turns each finished trace
 * into its spec §5 record and finding in-process.
 *
 * @module
 */
import { readOpenAiAgentsItem } from '../formats/openai-agents.js';
import { LiveTraceAssembler } from './live-assembler.js';
import type { LiveTraceOptions } from './live-options.js';

/** What the processor reads of the SDK's `Trace` and `Span` objects: their export form. */
export interface AgentsTraceLike {
  /** The trace id. */
  readonly traceId: string;
}
/** A span of the OpenAI Agents SDK: its `toJSON()` is the exporter's item. */
export interface AgentsSpanLike {
  /** The exporter's item (`{"object":"trace.span", …}`), or null for a no-op span. */
  toJSON(): object | null;
}

/**
 * An OpenAI Agents SDK `TracingProcessor`: register it with `addTraceProcessor` (beside the
 * SDK's own exporter) or `setTraceProcessors`, and each trace becomes a record and finding when
 * the SDK ends it — the same as `parl trace` gives for the exported items.
 *
 * @example
 * ```ts
 * import { addTraceProcessor } from '@openai/agents';
 * import { ParlTracingProcessor } from '@parl/traces';
 *
 * addTraceProcessor(new ParlTracingProcessor({ onResult: ({ record, finding }) => console.log(record, finding.serial_collapse) }));
 * ```
 */
export class ParlTracingProcessor {
  private readonly assembler: LiveTraceAssembler;

  /** @param options - see {@link LiveTraceOptions} */
  constructor(options: LiveTraceOptions = {}) {
    this.assembler = new LiveTraceAssembler(options);
  }

  /** Traces currently held (for memory checks). */
  get openTraces(): number {
    return this.assembler.openTraces;
  }

  /** Nothing to do when a trace starts. */
  async onTraceStart(): Promise<void> {}

  /** Map the trace and drop it. */
  async onTraceEnd(trace: AgentsTraceLike): Promise<void> {
    this.assembler.complete(trace.traceId);
  }

  /** Nothing to do when a span starts. */
  async onSpanStart(): Promise<void> {}

  /** Read the finished span into its trace. */
  async onSpanEnd(span: AgentsSpanLike): Promise<void> {
    const item = span.toJSON() as Record<string, unknown> | null;
    if (item === null || typeof item !== 'object') return;
    for (const read of readOpenAiAgentsItem(item, `live span ${String(item['id'])}`)) this.assembler.add(read);
  }

  /** Drop the traces still open (with a warning each). */
  async shutdown(): Promise<void> {
    this.assembler.dropAll('the processor was shut down before the trace ended');
  }

  /** Nothing is buffered beyond open traces. */
  async forceFlush(): Promise<void> {}
}
