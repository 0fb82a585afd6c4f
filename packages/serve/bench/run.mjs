// Load benchmark of parl serve on loopback, bounded in time (autocannon): POST /v1/rewards in
// batches of 256 (with ids, so every record is logged, fsync 'always'), OTLP JSON ingest, and an
// RSS soak. The server runs in a process of its own (bench/server-process.mjs); this process is
// the load generator, so the two do not share an event loop. Bodies are made before each run so
// that making them does not slow the load generator down.
//
// Usage: node bench/run.mjs [seconds per run (default 10)] [soak seconds (default 0)]
// Env: CONNECTIONS (default 8), FSYNC (always | interval | never; default always), NOLOG=1 (no
// episode log at all), LABEL_THREADS (the server's labelThreads; default its own), RATE (episodes/s
// offered in the paced rewards run, default 50000), SERVER_NODE_ARGS (node flags for the server,
// e.g. --cpu-prof).
// Runs: rewards as fast as CONNECTIONS connections go; rewards paced at RATE (latency at a given
// throughput); OTLP ingest; the soak (rewards with ids, logged, the store at its bound).
// ONLY=rewards or ONLY=otlp runs that part alone, on a server that has seen nothing else (by
// default OTLP runs after the rewards runs, with 100 000 labelled records held and the log grown).
// Prints the figures and, as the house rule asks, ratios against baselines from the same run:
// labelling the same 256-record batch in-process with @parl/core (parse, label, stringify; no
// HTTP), and reading the same OTLP request in-process with @parl/traces (no HTTP).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { labelReward, resolveRewardConfig } from '@parl/core';
import { readOtlpRequest } from '@parl/traces';

const seconds = Number(process.argv[2] ?? 10);
const soakSeconds = Number(process.argv[3] ?? 0);
const connections = Number(process.env.CONNECTIONS ?? 8);
const fsync = process.env.FSYNC ?? 'always';
const dir = mkdtempSync(join(tmpdir(), 'parl-serve-bench-'));
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(`load average at start (1, 5, 15 min): ${load()}; ${connections} connections, fsync '${fsync}', ${seconds} s per run`);

// ---- the server, in its own process ----
const child = spawn(process.execPath, [...(process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), fileURLToPath(new URL('server-process.mjs', import.meta.url)), process.env.NOLOG ? 'none' : join(dir, 'episodes.jsonl'), fsync], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened`)));
  // The first line starting with http is the URL; the rest (e.g. --trace-gc in SERVER_NODE_ARGS) is echoed to stderr.
  let seen = false;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!seen && line.startsWith('http')) (seen = true), resolve(line);
    else process.stderr.write(`server: ${line}\n`);
  });
});
/** The server's RSS (MiB) and CPU seconds so far, from /proc (Linux). */
function serverUsage() {
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) / 1024;
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const cpu = (Number(stat[11]) + Number(stat[12])) / 100; // utime + stime, in clock ticks (100/s)
  return { rss, cpu };
}

let n = 0;
const record = (id, i) => ({ ...(id === undefined ? {} : { id }), training_step: 100, num_subagents: 1 + (i % 30), completed_subtasks: i % 30, success: true, quality: 0.8, stages: [{ main_steps: 1, sub_steps: [3, 5, 2] }, { main_steps: 1 }] });
const batch = () => JSON.stringify(Array.from({ length: 256 }, (_, i) => record(`e${n++}`, i)));
const run = (opts) => new Promise((resolve, reject) => autocannon({ connections, duration: seconds, ...opts }, (err, res) => (err ? reject(err) : resolve(res))));
/** Cycle through bodies made in advance (each used once while they last). */
const bodiesOf = (make, count) => {
  const bodies = Array.from({ length: count }, make);
  let i = 0;
  return (req) => ({ ...req, body: bodies[i++ % bodies.length] });
};
const cpuLine = (before, after, s) => `server CPU ${((after.cpu - before.cpu) / s).toFixed(2)} cores busy on average`;

// ---- baselines, in-process ----
const sample = batch();
const config = resolveRewardConfig({});
let t0 = process.hrtime.bigint();
let labelled = 0;
while (process.hrtime.bigint() - t0 < 2_000_000_000n) {
  const out = JSON.parse(sample).map((r, i) => JSON.stringify(labelReward(r, config, `record ${i + 1}`)));
  labelled += out.length;
}
const labelPerS = labelled / 2;

const only = process.env.ONLY;
let before;
let after;
if (only === undefined || only === 'rewards') {
// ---- POST /v1/rewards ----
before = serverUsage();
const rewards = await run({ url: `${url}/v1/rewards`, requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: bodiesOf(batch, Math.ceil(seconds * 400)) }] });
after = serverUsage();
const episodesPerS = (rewards.requests.total * 256) / rewards.duration;
console.log(`rewards: ${rewards.requests.total} requests of 256 in ${rewards.duration.toFixed(1)} s = ${Math.round(episodesPerS)} episodes/s; latency p50 ${rewards.latency.p50} ms, p99 ${rewards.latency.p99} ms; errors ${rewards.errors}, non-2xx ${rewards.non2xx}; ${cpuLine(before, after, rewards.duration)}`);
console.log(`  baseline, in-process parse + label + stringify of the same batches: ${Math.round(labelPerS)} records/s on one core; served = ${(episodesPerS / labelPerS).toFixed(2)}x of it`);

// ---- POST /v1/rewards, paced: RATE episodes/s offered, latency at that throughput ----
// Open loop: requests of 256 sent at evenly spaced times whatever the answers (autocannon's
// overallRate sends each second's requests in one burst at the start of the second, which measures
// the burst, not the rate), over keep-alive connections opened as needed.
const rate = Number(process.env.RATE ?? 50_000);
const pacedBodies = Array.from({ length: Math.ceil((seconds * rate) / 256) + 1 }, batch);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const target = new URL(`${url}/v1/rewards`);
const post = (body) =>
  new Promise((resolve) => {
    const t = performance.now();
    const req = httpRequest({ agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - t, ok: res.statusCode === 200 }));
    });
    req.on('error', () => resolve({ ms: performance.now() - t, ok: false }));
    req.end(body);
  });
before = serverUsage();
const every = 256_000 / rate; // ms between requests
const pacedStart = performance.now();
const sent = [];
for (let i = 0; i < pacedBodies.length - 1; i++) {
  const due = pacedStart + i * every;
  const wait = due - performance.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  sent.push(post(pacedBodies[i]));
}
const answers = await Promise.all(sent);
const pacedSeconds = (performance.now() - pacedStart) / 1000;
after = serverUsage();
agent.destroy();
const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
const pct = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
console.log(`rewards paced at ${rate} episodes/s offered (evenly spaced, open loop): ${answers.length} requests of 256 in ${pacedSeconds.toFixed(1)} s = ${Math.round((answers.filter((a) => a.ok).length * 256) / pacedSeconds)} episodes/s answered 200; latency p50 ${pct(0.5)} ms, p90 ${pct(0.9)} ms, p99 ${pct(0.99)} ms, max ${ms.at(-1).toFixed(1)} ms; not 200: ${answers.filter((a) => !a.ok).length}; ${cpuLine(before, after, pacedSeconds)}`);

}
if (only === undefined || only === 'otlp') {
// ---- POST /v1/traces (OTLP JSON) ----
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
const otlpSample = otlp();
t0 = process.hrtime.bigint();
let read = 0;
while (process.hrtime.bigint() - t0 < 2_000_000_000n) read += readOtlpRequest(JSON.parse(otlpSample), 'request 1').length;
const readPerS = read / 2;
before = serverUsage();
const ingest = await run({ url: `${url}/v1/traces`, requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: bodiesOf(otlp, Math.ceil(seconds * 3000)) }] });
after = serverUsage();
const spansPerS = (ingest.requests.total * spansPer) / ingest.duration;
console.log(`otlp: ${ingest.requests.total} requests of ${spansPer} spans = ${Math.round(spansPerS)} spans/s; latency p50 ${ingest.latency.p50} ms, p99 ${ingest.latency.p99} ms; errors ${ingest.errors}, non-2xx ${ingest.non2xx}; ${cpuLine(before, after, ingest.duration)}`);
console.log(`  baseline, in-process JSON.parse + readOtlpRequest of the same requests: ${Math.round(readPerS)} spans/s on one core; served = ${(spansPerS / readPerS).toFixed(2)}x of it`);

}
if (soakSeconds > 0) {
  // Soak: rewards with ids (labelled, logged, held: the store reaches its bound of 100 000 and
  // stays there), the server's RSS sampled every 5 s. 2 000 bodies made in advance are cycled.
  const rss = [];
  const timer = setInterval(() => rss.push(serverUsage().rss), 5000);
  const soak = await run({ url: `${url}/v1/rewards`, duration: soakSeconds, requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: bodiesOf(batch, 2000) }] });
  clearInterval(timer);
  const mb = (x) => x.toFixed(0);
  const third = Math.floor(rss.length / 3);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`soak ${soakSeconds} s: ${Math.round((soak.requests.total * 256) / soak.duration)} episodes/s, p99 ${soak.latency.p99} ms, errors ${soak.errors}, non-2xx ${soak.non2xx}; server RSS MiB first/min/max/last ${mb(rss[0])}/${mb(Math.min(...rss))}/${mb(Math.max(...rss))}/${mb(rss.at(-1))}; mean of the first third ${mb(mean(rss.slice(0, third)))}, of the last third ${mb(mean(rss.slice(-third)))}`);
}
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
console.log(`load average at the end: ${load()}`);
rmSync(dir, { recursive: true, force: true });
