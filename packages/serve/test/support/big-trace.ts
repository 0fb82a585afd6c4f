/**
 * One large OTLP JSON export: an orchestrator whose `subAgents` sub-agents ran one after another,
 * each with 4096 characters of distinct captured input and output (what makes the independence
 * check of findings read megabytes). 280 sub-agents make about 2.5 MB.
 */
export function bigTraceExport(subAgents: number, traceId: string): string {
  const hex = (n: number): string => n.toString(16).padStart(16, '0');
  const words = (tag: string): string => {
    let s = '';
    for (let k = 0; s.length < 4096; k++) s += `${tag}w${k} `;
    return s;
  };
  const t0 = BigInt(Date.UTC(2025, 0, 1)) * 1_000_000n;
  const ns = (ms: number): string => String(t0 + BigInt(ms) * 1_000_000n);
  const attr = (key: string, value: string): { key: string; value: { stringValue: string } } => ({ key, value: { stringValue: value } });
  const spans: Record<string, unknown>[] = [
    { traceId, spanId: hex(1), name: 'invoke_agent boss', startTimeUnixNano: ns(0), endTimeUnixNano: ns(subAgents * 100 + 200), attributes: [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.agent.name', 'boss')] },
  ];
  for (let j = 0; j < subAgents; j++) {
    const agent = hex(2 + 2 * j);
    spans.push({
      traceId,
      spanId: agent,
      parentSpanId: hex(1),
      name: `invoke_agent s${j}`,
      startTimeUnixNano: ns(100 + j * 100),
      endTimeUnixNano: ns(190 + j * 100),
      attributes: [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.agent.name', `s${j}`), attr('input', words(`in${j}x`)), attr('output', words(`out${j}x`))],
    });
    spans.push({ traceId, spanId: hex(3 + 2 * j), parentSpanId: agent, name: 'chat', startTimeUnixNano: ns(101 + j * 100), endTimeUnixNano: ns(180 + j * 100), attributes: [attr('gen_ai.operation.name', 'chat')] });
  }
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'big-trace' }, spans }] }] });
}
