// Reading OTLP export requests already parsed (what `parl serve` does for each POST /v1/traces):
// readOtlpRequest's spans/s against JSON.parse of the same requests (the floor of any reader),
// and, with BASELINE=<path to another build's dist/index.js>, against that build, alternating
// the two in the same process.
//
// Usage: node bench/read-otlp.mjs            (after pnpm --filter @parl/traces build)
//        BASELINE=/path/to/old/dist/index.js node bench/read-otlp.mjs
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';

const current = await import('../dist/index.js');
const baseline = process.env.BASELINE ? await import(pathToFileURL(process.env.BASELINE).href) : undefined;

// 200 requests of 4 traces × 16 spans: an agent span and 15 model calls with their input messages.
let trace = 0;
const request = () => {
  const spans = [];
  for (let t = 0; t < 4; t++) {
    const traceId = (++trace).toString(16).padStart(32, '0');
    const ns = (ms) => String(1_735_732_800_000_000_000n + BigInt(ms) * 1_000_000n);
    spans.push({ traceId, spanId: 'r'.padStart(16, '0'), name: 'invoke_agent boss', startTimeUnixNano: ns(0), endTimeUnixNano: ns(1000), attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }] });
    for (let i = 1; i < 16; i++) {
      spans.push({ traceId, spanId: i.toString(16).padStart(16, '0'), parentSpanId: 'r'.padStart(16, '0'), name: 'chat', startTimeUnixNano: ns(i), endTimeUnixNano: ns(i + 1), attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }, { key: 'gen_ai.input.messages', value: { stringValue: '[{"role":"user","content":"hi"}]' } }] });
    }
  }
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
};
const requests = Array.from({ length: 200 }, request);
const texts = requests.map((r) => JSON.stringify(r));
const spansPerPass = requests.reduce((n, r) => n + r.resourceSpans[0].scopeSpans[0].spans.length, 0);

const rate = (pass) => {
  let spans = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 700) {
    pass();
    spans += spansPerPass;
  }
  return (spans / (performance.now() - t0)) * 1000;
};
const readWith = (m) => () => {
  for (const r of requests) m.readOtlpRequest(r, 'request 1');
};
const parse = () => {
  for (const t of texts) JSON.parse(t);
};

if (baseline !== undefined && JSON.stringify(baseline.readOtlpRequest(requests[0], 'r')) !== JSON.stringify(current.readOtlpRequest(requests[0], 'r'))) {
  throw new Error('the baseline reads the spans differently: not the same work');
}
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const rows = [];
for (let round = 0; round < 5; round++) {
  const row = { floor: rate(parse), current: rate(readWith(current)) };
  if (baseline !== undefined) row.baseline = rate(readWith(baseline));
  rows.push(row);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = (k) => median(rows.map((r) => r[k]));
console.log(`JSON.parse of the requests (floor): ${Math.round(m('floor'))} spans/s`);
console.log(`readOtlpRequest: ${Math.round(m('current'))} spans/s = ${(m('current') / m('floor')).toFixed(2)}x the floor's rate`);
if (baseline !== undefined) {
  console.log(`baseline build: ${Math.round(m('baseline'))} spans/s; this build / baseline, median of per-round ratios: ${median(rows.map((r) => r.current / r.baseline)).toFixed(2)}x`);
}
console.log(`(medians of 5 rounds, 0.7 s per measurement) load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
