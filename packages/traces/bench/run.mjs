// Benchmark of @parl/traces: throughput of readTraces against a baseline measured in the same
// run (JSON.parse of the same lines: the least any reader of the file must do), and peak memory
// while streaming an input generated on the fly (never held whole).
//
//   pnpm --filter @parl/traces build && pnpm --filter @parl/traces bench
//   TRACES=20000 node bench/run.mjs
import { readTraces } from '../dist/index.js';
import { otlpTrace } from './otlp-trace.mjs';

const TRACES = Number(process.env.TRACES ?? 3000);
const BIG = Number(process.env.BIG_TRACES ?? 20000);

function chunksOf(lines, size = 1 << 16) {
  const text = lines.join('\n') + '\n';
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

async function time(fn) {
  const t0 = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

// Memory: stream BIG traces generated on the fly; the input is never held whole.
async function* generated() {
  for (let i = 0; i < BIG; i++) yield `${otlpTrace(i)}\n`;
}
const rss0 = process.memoryUsage().rss;
let peak = rss0;
let bigBytes = 0;
const big = await time(async () => {
  let n = 0;
  for await (const _ of readTraces(
    (async function* () {
      for await (const line of generated()) {
        bigBytes += line.length;
        yield line;
      }
    })(),
  )) {
    if (++n % 1000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  return n;
});


const lines = Array.from({ length: TRACES }, (_, i) => otlpTrace(i));
const chunks = chunksOf(lines);
const bytes = chunks.reduce((a, c) => a + Buffer.byteLength(c), 0);
const spansPerTrace = JSON.parse(lines[0]).resourceSpans[0].scopeSpans[0].spans.length;

// Warm-up, then measure baseline and readTraces alternately (best of 3 each).
const baseline = async () => {
  let n = 0;
  for (const line of chunks.join('').split('\n')) if (line !== '') n += JSON.parse(line).resourceSpans.length;
  return n;
};
const ingest = async (options = {}) => {
  let n = 0;
  for await (const r of readTraces(chunks, options)) n += r.record.stages.length > 0 ? 1 : 0;
  return n;
};
await baseline();
await ingest();
let best = { base: Infinity, jsonl: Infinity, overlapWall: Infinity };
for (let k = 0; k < 3; k++) {
  best.base = Math.min(best.base, (await time(baseline)).ms);
  best.jsonl = Math.min(best.jsonl, (await time(() => ingest())).ms);
  best.overlapWall = Math.min(best.overlapWall, (await time(() => ingest({ grouping: 'overlap', clock: 'wall' }))).ms);
}
const docChunks = chunksOf([JSON.stringify({ resourceSpans: lines.map((l) => JSON.parse(l).resourceSpans[0]) }, null, 1)]);
const doc = await time(async () => {
  let n = 0;
  for await (const _ of readTraces(docChunks)) n++;
  return n;
});

const mb = (b) => (b / 1024 / 1024).toFixed(1);
console.log(`@parl/traces bench — Node ${process.version}, ${TRACES} traces × ${spansPerTrace} spans (${mb(bytes)} MiB JSONL)`);
console.log(`baseline JSON.parse of the lines:      ${best.base.toFixed(0)} ms`);
console.log(`readTraces JSONL (children, count):    ${best.jsonl.toFixed(0)} ms  = ${(best.jsonl / best.base).toFixed(2)}× baseline  (${Math.round((TRACES / best.jsonl) * 1000)} traces/s)`);
console.log(`readTraces JSONL (overlap, wall):      ${best.overlapWall.toFixed(0)} ms  = ${(best.overlapWall / best.base).toFixed(2)}× baseline`);
console.log(`readTraces one streamed JSON document: ${doc.ms.toFixed(0)} ms  = ${(doc.ms / best.base).toFixed(2)}× baseline  (${doc.value} traces)`);
console.log(`streaming ${big.value} generated traces (${mb(bigBytes)} MiB) in ${(big.ms / 1000).toFixed(1)} s: RSS ${mb(rss0)} → peak ${mb(peak)} MiB`);
