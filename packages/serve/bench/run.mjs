// Load benchmark of parl serve on loopback, bounded in time (autocannon): POST /v1/rewards in
// batches of 256 (with ids, so every record is logged with fsync 'always'), OTLP JSON ingest, and
// an RSS soak. Usage: node bench/run.mjs [seconds per run (default 10)] [soak seconds (default 0)]
// Prints figures and, as the house rule asks, the ratio against a baseline from the same run
// (labelling 256 records in-process with @parl/core, no HTTP).
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labelReward } from '@parl/core';
import { createParlServer } from '@parl/serve';

const seconds = Number(process.argv[2] ?? 10);
const soakSeconds = Number(process.argv[3] ?? 0);
const dir = mkdtempSync(join(tmpdir(), 'parl-serve-bench-'));
const server = await createParlServer({ port: 0, logFile: join(dir, 'episodes.jsonl'), quietPeriodMs: 200 });

let n = 0;
const batch = () => JSON.stringify(Array.from({ length: 256 }, (_, i) => ({ id: `e${n++}-${i}`, training_step: 100, num_subagents: 1 + (i % 30), completed_subtasks: i % 30, success: true, quality: 0.8, stages: [{ main_steps: 1, sub_steps: [3, 5, 2] }, { main_steps: 1 }] })));
const run = (opts) => new Promise((resolve, reject) => autocannon({ connections: 8, duration: seconds, ...opts }, (err, res) => (err ? reject(err) : resolve(res))));

// Baseline: the same labelling in-process.
const records = JSON.parse(batch());
const t0 = process.hrtime.bigint();
let labelled = 0;
while (process.hrtime.bigint() - t0 < 2_000_000_000n) for (const r of records) (labelReward(r, {}), labelled++);
const baselinePerS = labelled / 2;

const rewards = await run({ url: `${server.url}/v1/rewards`, requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: batch() }) }] });
const episodesPerS = (rewards.requests.total * 256) / rewards.duration;
console.log(`rewards: ${rewards.requests.total} requests of 256 in ${rewards.duration.toFixed(1)} s = ${Math.round(episodesPerS)} episodes/s; latency p50 ${rewards.latency.p50} ms, p99 ${rewards.latency.p99} ms; non-2xx ${rewards.non2xx}; in-process labelling baseline ${Math.round(baselinePerS)} records/s (HTTP+log = ${(episodesPerS / baselinePerS).toFixed(2)}x of it)`);

let trace = 0;
const spansPer = 64;
const otlp = () => {
  const spans = [];
  for (let t = 0; t < 4; t++) {
    const traceId = (++trace).toString(16).padStart(32, '0');
    const base = 1_735_732_800_000_000_000n;
    const ns = (ms) => String(base + BigInt(ms) * 1_000_000n);
    spans.push({ traceId, spanId: 'r'.padStart(16, '0'), name: 'invoke_agent boss', startTimeUnixNano: ns(0), endTimeUnixNano: ns(1000), attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }] });
    for (let i = 1; i < spansPer / 4; i++) spans.push({ traceId, spanId: i.toString(16).padStart(16, '0'), parentSpanId: 'r'.padStart(16, '0'), name: 'chat', startTimeUnixNano: ns(i), endTimeUnixNano: ns(i + 1), attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }] });
  }
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
};
const ingest = await run({ url: `${server.url}/v1/traces`, requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: otlp() }) }] });
console.log(`otlp: ${ingest.requests.total} requests of ${spansPer} spans = ${Math.round((ingest.requests.total * spansPer) / ingest.duration)} spans/s; latency p50 ${ingest.latency.p50} ms, p99 ${ingest.latency.p99} ms; non-2xx ${ingest.non2xx}`);

if (soakSeconds > 0) {
  // Soak: rewards without ids (labelled, not logged, so the disk does not fill), RSS sampled.
  const rss = [];
  const timer = setInterval(() => rss.push(process.memoryUsage().rss), 5000);
  const anon = JSON.stringify(records.map(({ id, ...r }) => r));
  const soak = await run({ url: `${server.url}/v1/rewards`, duration: soakSeconds, body: anon, method: 'POST', headers: { 'content-type': 'application/json' } });
  clearInterval(timer);
  const mb = (b) => (b / 2 ** 20).toFixed(0);
  console.log(`soak ${soakSeconds} s: ${Math.round((soak.requests.total * 256) / soak.duration)} episodes/s, p99 ${soak.latency.p99} ms; RSS MiB first/min/max/last ${mb(rss[0])}/${mb(Math.min(...rss))}/${mb(Math.max(...rss))}/${mb(rss.at(-1))}`);
}
await server.close();
rmSync(dir, { recursive: true, force: true });
