// K2.6 scale: one episode with 300 sub-agents and 4,201 tool calls against a fast loopback
// OpenAI-compatible endpoint (./fast-endpoint.ts: test-support's scripted endpoint in its own
// process, so this process's CPU time is the client's alone) and fast tools (the suite's corpus
// `open`). Three clients make the very same model calls, in the same shape (the orchestrator's
// call, then every sub-agent's chain of calls at once, then the orchestrator's last call):
//   fetch       a raw `fetch` loop replaying the request bodies the runtime sent (the floor);
//   doGenerate  the provider's own `doGenerate` (@ai-sdk/openai-compatible) replaying the call
//               options the runtime gave it (what any AI SDK app pays for the same calls);
//   runtime     `runEpisode`.
// Warm, interleaved: a discarded warm-up round, then ROUNDS rounds each running every phase in a
// rotated order; medians reported.
//
//   pnpm --filter @parl/swarm build && node --expose-gc packages/swarm/bench/k26-scale.mjs [SUBAGENTS] [ROUNDS]
//   (SWARM_DIST=/path/to/dist measures another build of the package, e.g. the last release's)
//
// Two workloads with the same model calls (2 orchestrator + 3 per sub-agent = 902):
//   A  each sub-agent makes 7 then 6 tool calls
//   B  each sub-agent makes 1 then 1
// The tool calls are counted by the executor (EpisodeResult.toolCalls), not computed.
// The runtime's own cost over a baseline is Δ = runtime − baseline, in this process's CPU time
// and in wall time:
//   per tool call  = (ΔA − ΔB) / (tool calls A − tool calls B)
//   per model call = (ΔB − tool calls B × per tool call) / model calls
// Peak memory: the most heap and RSS above the phase's start seen while it ran (every phase).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';

const dist = process.env.SWARM_DIST === undefined ? new URL('../dist/index.js', import.meta.url) : pathToFileURL(`${process.env.SWARM_DIST}/index.js`);
const { generateSuite, runEpisode } = await import(dist.href);

const SUBAGENTS = Number(process.argv[2] ?? 300);
const ROUNDS = Number(process.argv[3] ?? 5);
const WORKLOADS = { A: '7,6', B: '1,1' };
const [task] = generateSuite('wide', { tasks: 1, seed: 1 });

async function startEndpoint(toolCalls) {
  const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
  const child = spawn(tsx, [fileURLToPath(new URL('./fast-endpoint.ts', import.meta.url)), String(SUBAGENTS), toolCalls], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const [url] = await once(lines, 'line');
  process.once('exit', () => child.kill('SIGTERM'));
  return { url, stop: () => child.kill('SIGTERM') };
}

/** A model on `url`; with `log`, its requests (bodies, and the call options given to doGenerate) are recorded for the replays. */
function modelOn(url, log) {
  const model = createOpenAICompatible({
    name: 'bench',
    baseURL: url,
    ...(log === undefined ? {} : { fetch: async (input, init) => {
      log.bodies.push({ url: String(input), body: init.body });
      return fetch(input, init);
    } }),
  }).chatModel('fast');
  if (log === undefined) return model;
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => {
      // The runtime grows its prompt in place: keep this call's messages.
      log.calls.push({ ...options, prompt: options.prompt.slice(), abortSignal: undefined });
      return model.doGenerate(options);
    },
    doStream: (options) => model.doStream(options),
  };
}

/** The replay plan of recorded requests: the orchestrator's first, each sub-agent's chain in order, the orchestrator's last. */
function planOf(items, isOrchestrator, chainKey) {
  const orchestrator = [];
  const chains = new Map();
  for (const item of items) {
    if (isOrchestrator(item)) {
      orchestrator.push(item);
      continue;
    }
    const key = chainKey(item);
    if (!chains.has(key)) chains.set(key, []);
    chains.get(key).push(item);
  }
  return { first: orchestrator[0], last: orchestrator[orchestrator.length - 1], chains: [...chains.values()] };
}

async function replay(plan, call) {
  await call(plan.first);
  await Promise.all(plan.chains.map(async (chain) => {
    for (const item of chain) await call(item);
  }));
  await call(plan.last);
}

async function post({ url, body }) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return res.json();
}

function settingsFor(model) {
  return { orchestrator: model, subagentModel: model, concurrency: SUBAGENTS, maxSubagents: SUBAGENTS, trainingStep: 0 };
}

async function measure(fn) {
  global.gc?.();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
    if (m.rss > peakRss) peakRss = m.rss;
  }, 5);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(timer);
  return { out, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, heapMb: (peakHeap - base.heapUsed) / 2 ** 20, rssMb: (peakRss - base.rss) / 2 ** 20 };
}

const endpoints = { A: await startEndpoint(WORKLOADS.A), B: await startEndpoint(WORKLOADS.B) };
const fetchPlans = {};
const callPlans = {};
const counts = {};
const models = {};
for (const w of ['A', 'B']) {
  const log = { bodies: [], calls: [] };
  const { record, toolCalls } = await runEpisode(task, settingsFor(modelOn(endpoints[w].url, log)));
  fetchPlans[w] = planOf(log.bodies, (r) => JSON.parse(r.body).tools?.some((t) => t.function.name === 'assign_task'), (r) => JSON.parse(r.body).messages.find((m) => m.role === 'user').content);
  callPlans[w] = planOf(log.calls, (c) => c.tools?.some((t) => t.name === 'assign_task'), (c) => c.prompt.find((m) => m.role === 'user').content[0].text);
  counts[w] = { modelCalls: log.calls.length, toolCalls, subagents: record.num_subagents, errors: record.tool_errors };
  if (record.num_subagents !== SUBAGENTS || record.tool_errors !== 0) throw new Error(`workload ${w}: ${JSON.stringify(counts[w])}`);
  models[w] = modelOn(endpoints[w].url, undefined);
}
const phases = [];
for (const w of ['A', 'B']) {
  phases.push([`fetch ${w}`, () => replay(fetchPlans[w], post)]);
  phases.push([`doGenerate ${w}`, () => replay(callPlans[w], (options) => models[w].doGenerate(options))]);
  phases.push([`runtime ${w}`, async () => {
    const { toolCalls } = await runEpisode(task, settingsFor(models[w]));
    if (toolCalls !== counts[w].toolCalls) throw new Error(`workload ${w}: ${toolCalls} tool calls, ${counts[w].toolCalls} before`);
  }]);
}
const results = Object.fromEntries(phases.map(([name]) => [name, []]));
for (let round = 0; round <= ROUNDS; round++) {
  for (let i = 0; i < phases.length; i++) {
    const [name, fn] = phases[(i + round) % phases.length];
    const m = await measure(fn);
    process.stderr.write(`round ${round}${round === 0 ? ' (warm-up)' : ''}: ${name} ${m.wallMs.toFixed(0)} ms wall, ${m.cpuMs.toFixed(0)} ms CPU\n`);
    if (round > 0) results[name].push(m);
  }
}
endpoints.A.stop();
endpoints.B.stop();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const med = (name, key) => median(results[name].map((r) => r[key]));
const ownCost = (baseline, key) => {
  const dA = med('runtime A', key) - med(`${baseline} A`, key);
  const dB = med('runtime B', key) - med(`${baseline} B`, key);
  const tool = (dA - dB) / (counts.A.toolCalls - counts.B.toolCalls);
  const model = (dB - counts.B.toolCalls * tool) / counts.B.modelCalls;
  return { tool: tool * 1000, model: model * 1000 };
};
console.log(`${SUBAGENTS} sub-agents; workload A: ${counts.A.modelCalls} model calls, ${counts.A.toolCalls} tool calls (counted by the executor); B: ${counts.B.modelCalls} model calls, ${counts.B.toolCalls} tool calls; ${ROUNDS} rounds after a warm-up, medians`);
console.log('| phase | wall ms | client CPU ms | × fetch (CPU) | peak heap MiB | peak RSS MiB |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [name] of phases) {
  const floor = med(`fetch ${name.slice(-1)}`, 'cpuMs');
  console.log(`| ${name} | ${med(name, 'wallMs').toFixed(1)} | ${med(name, 'cpuMs').toFixed(1)} | ${(med(name, 'cpuMs') / floor).toFixed(2)} | ${med(name, 'heapMb').toFixed(1)} | ${med(name, 'rssMb').toFixed(1)} |`);
}
console.log('');
console.log('| the runtime\'s own cost | over doGenerate, CPU µs | over doGenerate, wall µs | over raw fetch, CPU µs | over raw fetch, wall µs |');
console.log('| --- | --- | --- | --- | --- |');
const g = { cpu: ownCost('doGenerate', 'cpuMs'), wall: ownCost('doGenerate', 'wallMs') };
const f = { cpu: ownCost('fetch', 'cpuMs'), wall: ownCost('fetch', 'wallMs') };
console.log(`| per model call | ${g.cpu.model.toFixed(1)} | ${g.wall.model.toFixed(1)} | ${f.cpu.model.toFixed(1)} | ${f.wall.model.toFixed(1)} |`);
console.log(`| per tool call | ${g.cpu.tool.toFixed(1)} | ${g.wall.tool.toFixed(1)} | ${f.cpu.tool.toFixed(1)} | ${f.wall.tool.toFixed(1)} |`);
