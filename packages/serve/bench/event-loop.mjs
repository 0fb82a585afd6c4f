// How long one large request holds parl serve's event loop: node:perf_hooks' monitorEventLoopDelay
// (1 ms resolution) runs from just before the request is sent until its work is done, and the
// p99 and max delay are printed, with /healthz round trips answered meanwhile. Each request is
// measured on a server with labelThreads 0 (everything on the event loop: what the server did
// before large work moved to threads) and on one with labelThreads 1, in the same run, and the
// ratio of the two is printed. The server runs in a process of its own (bench/loop-server.mjs),
// where the monitor runs; this process makes the bodies, sends them and polls /healthz.
//
// Usage: node bench/event-loop.mjs [repeats (default 3)]
// Requests:
//   trace       POST /v1/traces, one 2.5 MB OTLP JSON trace of 280 sub-agents with 4 KiB of
//               captured input and output each; done when its episode is held (mapping + findings)
//   get_reward  POST /get_reward, a 15 MiB body of 60 labels (records of 250 KiB); done when answered
//   rewards     POST /v1/rewards, a 13 MiB JSON array of 40 000 records; done when answered
//   idle        no request: /healthz alone for 2 s, the floor the machine's load sets
//   otlp-big    POST /v1/traces, a 15 MiB OTLP JSON request of 1 800 traces of 4 KiB spans;
//               done when answered (decoding and reading the request; the traces map later)
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const repeats = Number(process.argv[2] ?? 3);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

const hex = (n, width = 16) => n.toString(16).padStart(width, '0');
const words = (tag, chars = 4096) => {
  let s = '';
  for (let k = 0; s.length < chars; k++) s += `${tag}w${k} `;
  return s;
};
const attr = (key, value) => ({ key, value: { stringValue: value } });
const t0 = BigInt(Date.UTC(2025, 0, 1)) * 1_000_000n;
const ns = (ms) => String(t0 + BigInt(ms) * 1_000_000n);

/** One trace: an orchestrator and `units` sub-agents run one after another, 4 KiB in and out each. */
function traceSpans(traceId, units, tag) {
  const spans = [{ traceId, spanId: hex(1), name: 'invoke_agent boss', startTimeUnixNano: ns(0), endTimeUnixNano: ns(units * 100 + 200), attributes: [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.agent.name', 'boss')] }];
  for (let j = 0; j < units; j++) {
    const agent = hex(2 + 2 * j);
    spans.push({ traceId, spanId: agent, parentSpanId: hex(1), name: `invoke_agent s${j}`, startTimeUnixNano: ns(100 + j * 100), endTimeUnixNano: ns(190 + j * 100), attributes: [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.agent.name', `s${j}`), attr('input', words(`${tag}in${j}x`)), attr('output', words(`${tag}out${j}x`))] });
    spans.push({ traceId, spanId: hex(3 + 2 * j), parentSpanId: agent, name: 'chat', startTimeUnixNano: ns(101 + j * 100), endTimeUnixNano: ns(180 + j * 100), attributes: [attr('gen_ai.operation.name', 'chat')] });
  }
  return spans;
}
const exportOf = (spans) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }] });

let round = 0;
const note = 'x'.repeat(250 * 1024);
const requests = {
  // The floor: no request, /healthz polled for 2 s (what the machine's load alone costs the loop).
  idle: () => ({ idleMs: 2000 }),
  trace: () => {
    const traceId = hex(++round, 32);
    return { path: '/v1/traces', body: exportOf(traceSpans(traceId, 280, `r${round}`)), episode: traceId };
  },
  get_reward: () => ({
    path: '/get_reward',
    body: JSON.stringify({ labels: Array.from({ length: 60 }, (_, i) => JSON.stringify({ num_subagents: 1 + i, assigned_subtasks: 1 + i, completed_subtasks: i, r_perf: (i % 10) / 10, note })) }),
  }),
  rewards: () => ({
    path: '/v1/rewards',
    body: JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ num_subagents: 1 + (i % 30), completed_subtasks: i % 30, success: true, quality: 0.8, stages: [{ main_steps: 1, sub_steps: [3, 5, 2] }], note: note.slice(0, 200) }))),
  }),
  'otlp-big': () => {
    const spans = [];
    for (let t = 0; t < 1800; t++) spans.push(...traceSpans(hex(1_000_000 + ++round, 32), 1, `o${round}`));
    return { path: '/v1/traces', body: exportOf(spans) };
  },
};

/** A server process with `threads` labelling threads, and a way to ask it. */
async function startServer(threads) {
  const child = fork(fileURLToPath(new URL('loop-server.mjs', import.meta.url)), [String(threads)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [{ url }] = await once(child, 'message');
  const ask = async (message) => {
    const reply = once(child, 'message');
    child.send(message);
    return (await reply)[0];
  };
  return { url, ask, close: async () => Promise.all([once(child, 'exit'), child.send('close')]) };
}

/** Send one request and poll /healthz until its work is done; the server loop's delay meanwhile. */
async function measure(server, make) {
  const { path, body = '', episode, idleMs } = make();
  const bytes = Buffer.from(body);
  let done = false;
  let health = 0;
  await server.ask('start');
  const started = performance.now();
  const answered =
    idleMs !== undefined
      ? new Promise((resolve) => setTimeout(() => resolve(200), idleMs))
      : fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bytes }).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        });
  const poller = (async () => {
    while (!done) {
      const res = await fetch(`${server.url}/healthz`);
      await res.arrayBuffer();
      if (!done) health++;
    }
  })();
  try {
    const status = await answered;
    if (status !== 200) throw new Error(`${path} answered ${status}`);
    // A trace is done when its episode is held (GET /v1/episodes/{id} answers 200).
    while (episode !== undefined && (await fetch(`${server.url}/v1/episodes/${episode}`).then(async (r) => (await r.arrayBuffer(), r.status))) !== 200);
  } finally {
    done = true;
    await poller;
  }
  const ms = performance.now() - started;
  const { p99, max } = await server.ask('stop');
  return { p99, max, ms, health, bytes: bytes.byteLength };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`event-loop delay during one large request; ${repeats} repeats each (median shown); load average at start: ${load()}`);
const rows = [];
for (const [name, make] of Object.entries(requests)) {
  const figures = {};
  for (const threads of [0, 1]) {
    const server = await startServer(threads);
    const runs = [];
    try {
      for (let r = 0; r < repeats; r++) runs.push(await measure(server, make));
    } finally {
      await server.close();
    }
    figures[threads] = { p99: median(runs.map((r) => r.p99)), max: median(runs.map((r) => r.max)), ms: median(runs.map((r) => r.ms)), health: median(runs.map((r) => r.health)), bytes: runs[0].bytes };
  }
  const [loop, thread] = [figures[0], figures[1]];
  rows.push(`| ${name}${loop.bytes === 0 ? '' : ` (${(loop.bytes / 2 ** 20).toFixed(1)} MiB)`} | ${loop.p99.toFixed(0)} / ${loop.max.toFixed(0)} ms, ${loop.health} health, ${loop.ms.toFixed(0)} ms | ${thread.p99.toFixed(0)} / ${thread.max.toFixed(0)} ms, ${thread.health} health, ${thread.ms.toFixed(0)} ms | ${(loop.p99 / thread.p99).toFixed(1)}× / ${(loop.max / thread.max).toFixed(1)}× |`);
  console.log(rows.at(-1));
}
console.log(`load average at end: ${load()}`);
console.log('\n| request | labelThreads 0: p99 / max delay, /healthz answered meanwhile, time to done | labelThreads 1: the same | ratio p99 / max (0 over 1) |\n| --- | --- | --- | --- |');
for (const row of rows) console.log(row);
