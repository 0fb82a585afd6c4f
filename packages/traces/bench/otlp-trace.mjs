// The synthetic OTLP trace of the @parl/traces benchmarks.
const NS = 1_000_000n;

/** One OTLP export request line: orchestrator, 3 turns, 3 sub-agents of 2 LLM calls + 1 tool call each. */
export function otlpTrace(i) {
  const trace = i.toString(16).padStart(32, '0');
  const spans = [];
  let n = 0;
  const id = () => (i * 1000 + n++).toString(16).padStart(16, '0');
  const base = 1_735_732_800_000n + BigInt(i) * 100_000n;
  const span = (spanId, parent, name, attrs, start, end) =>
    spans.push({
      traceId: trace,
      spanId,
      ...(parent === undefined ? {} : { parentSpanId: parent }),
      name,
      kind: 1,
      startTimeUnixNano: String((base + BigInt(start)) * NS),
      endTimeUnixNano: String((base + BigInt(end)) * NS),
      attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
      status: { code: 0 },
    });
  const root = id();
  let t = 0;
  for (let turn = 0; turn < 3; turn++) {
    span(id(), root, 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o' }, t, t + 1000);
    t += 1000;
    let end = t;
    for (let s = 0; s < 3; s++) {
      const tool = id();
      const agent = id();
      const start = t + (turn === 2 ? s * 4000 : 0);
      span(id(), agent, 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini' }, start, start + 1000);
      span(id(), agent, 'execute_tool search', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search' }, start + 1000, start + 1500);
      span(id(), agent, 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini' }, start + 1500, start + 2500);
      span(agent, tool, `invoke_agent sub${s}`, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': `sub${s}` }, start, start + 2500);
      span(tool, root, 'execute_tool', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': `ask_sub${s}` }, start, start + 2500);
      end = Math.max(end, start + 2500);
    }
    t = end;
  }
  span(root, undefined, 'invoke_agent orchestrator', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'orchestrator' }, 0, t);
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }] });
}

