/** Small hand-written OTLP JSON spans for malformed-input cases. */
export interface HandSpan {
  readonly trace?: string;
  readonly id: string;
  readonly parent?: string;
  readonly op?: string;
  readonly agent?: string;
  readonly start: number;
  readonly end: number;
  readonly extraAttributes?: readonly unknown[];
}

const NS = 1_000_000n;
const BASE = 1_735_732_800_000n; // 2025-01-01T12:00:00Z in ms

export function otlpSpan(s: HandSpan): Record<string, unknown> {
  const attributes: unknown[] = [];
  if (s.op !== undefined) attributes.push({ key: 'gen_ai.operation.name', value: { stringValue: s.op } });
  if (s.agent !== undefined) attributes.push({ key: 'gen_ai.agent.name', value: { stringValue: s.agent } });
  attributes.push(...(s.extraAttributes ?? []));
  const span: Record<string, unknown> = {
    traceId: s.trace ?? 'aaaa0000aaaa0000aaaa0000aaaa0000',
    spanId: s.id,
    name: s.agent ?? s.op ?? s.id,
    startTimeUnixNano: String((BASE + BigInt(s.start)) * NS),
    endTimeUnixNano: String((BASE + BigInt(s.end)) * NS),
    attributes,
    status: { code: 0 },
  };
  if (s.parent !== undefined) span['parentSpanId'] = s.parent;
  return span;
}

/** One OTLP export request line holding the spans. */
export function otlpLine(spans: readonly HandSpan[]): string {
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'hand' }, spans: spans.map(otlpSpan) }] }] });
}

/** A minimal well-formed trace: orchestrator, one LLM call, one sub-agent with one LLM call. */
export function smallTrace(trace: string): HandSpan[] {
  return [
    { trace, id: `${trace}-llm`, parent: `${trace}-root`, op: 'chat', start: 0, end: 100 },
    { trace, id: `${trace}-subllm`, parent: `${trace}-sub`, op: 'chat', start: 110, end: 200 },
    { trace, id: `${trace}-sub`, parent: `${trace}-root`, op: 'invoke_agent', agent: 'helper', start: 105, end: 210 },
    { trace, id: `${trace}-root`, op: 'invoke_agent', agent: 'boss', start: 0, end: 300 },
  ];
}
