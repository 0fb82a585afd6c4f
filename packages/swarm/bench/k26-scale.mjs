// K2.6 scale: one episode with 300 sub-agents and 4,201 tool calls against a fast loopback
// OpenAI-compatible endpoint (./fast-endpoint.ts, test-support's scripted endpoint in its own process) and fast tools (the suite's
// corpus `open`), against a raw `fetch` loop that replays the very request bodies the runtime sent,
// in the same shape (the orchestrator's call, then every sub-agent's chain of calls at once, then
// the orchestrator's last call). Warm, interleaved: a discarded warm-up round, then ROUNDS rounds
// each running the four phases in a rotated order; medians reported.
//
//   pnpm --filter @parl/swarm build && node packages/swarm/bench/k26-scale.mjs [SUBAGENTS] [ROUNDS]
//
// Two workloads with the same model calls (2 orchestrator + 3 per sub-agent = 902):
//   A  each sub-agent makes 7 then 6 tool calls (300 × 13 + 301 of the orchestrator = 4,201)
//   B  each sub-agent makes 1 then 1 (300 × 2 + 301 = 901)
// The runtime's own cost over raw fetch is Δ = runtime − replay, in this process's CPU time (the
// endpoint runs elsewhere, so a loaded machine's waiting is not counted) and in wall time:
//   per tool call  = (ΔA − ΔB) / (4,201 − 901)
//   per model call = (ΔB − 901 × per tool call) / 902
// Peak memory: the most heap and RSS above the round's start seen while an A episode ran.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateSuite, runEpisode } from '../dist/index.js';

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

/** A model on `url` whose requests are recorded (once) for the replay. */
function recordedModel(url, log) {
  return createOpenAICompatible({
    name: 'bench',
    baseURL: url,
    fetch: async (input, init) => {
      if (log !== undefined) log.push({ url: String(input), body: init.body });
      return fetch(input, init);
    },
  }).chatModel('fast');
}

/** The replay plan: the orchestrator's first body, each sub-agent's bodies in order, the orchestrator's last. */
function planOf(log) {
  const orchestrator = [];
  const chains = new Map();
  for (const { url, body } of log) {
    const parsed = JSON.parse(body);
    if ((parsed.tools ?? []).some((t) => t.function.name === 'assign_task')) {
      orchestrator.push({ url, body });
      continue;
    }
    const key = parsed.messages.find((m) => m.role === 'user').content;
    if (!chains.has(key)) chains.set(key, []);
    chains.get(key).push({ url, body });
  }
  return { first: orchestrator[0], last: orchestrator[orchestrator.length - 1], chains: [...chains.values()] };
}

async function post({ url, body }) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return res.json();
}

async function replay(plan) {
  await post(plan.first);
  await Promise.all(plan.chains.map(async (chain) => {
    for (const request of chain) await post(request);
  }));
  await post(plan.last);
}

function settingsFor(model) {
  return { orchestrator: model, subagentModel: model, concurrency: SUBAGENTS, maxSubagents: SUBAGENTS, trainingStep: 0 };
}

async function measure(fn, sampleMemory) {
  global.gc?.();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const timer = sampleMemory ? setInterval(() => {
    const m = process.memoryUsage();
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
    if (m.rss > peakRss) peakRss = m.rss;
  }, 5) : undefined;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(timer);
  return { out, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, heapMb: (peakHeap - base.heapUsed) / 2 ** 20, rssMb: (peakRss - base.rss) / 2 ** 20 };
}

const endpoints = { A: await startEndpoint(WORKLOADS.A), B: await startEndpoint(WORKLOADS.B) };
const plans = {};
const counts = {};
for (const w of ['A', 'B']) {
  const log = [];
  const { record } = await runEpisode(task, settingsFor(recordedModel(endpoints[w].url, log)));
  plans[w] = planOf(log);
  const perSub = WORKLOADS[w].split(',').map(Number).reduce((a, b) => a + b, 0);
  counts[w] = { modelCalls: log.length, toolCalls: record.orchestrator_tool_calls + SUBAGENTS * perSub, subagents: record.num_subagents, critical: record.critical_steps, errors: record.tool_errors };
  if (record.num_subagents !== SUBAGENTS || record.tool_errors !== 0) throw new Error(`workload ${w}: ${JSON.stringify(counts[w])}`);
}
const models = { A: recordedModel(endpoints.A.url, undefined), B: recordedModel(endpoints.B.url, undefined) };
const phases = [
  ['replay A', () => replay(plans.A), false],
  ['runtime A', () => runEpisode(task, settingsFor(models.A)), true],
  ['replay B', () => replay(plans.B), false],
  ['runtime B', () => runEpisode(task, settingsFor(models.B)), false],
];
const results = Object.fromEntries(phases.map(([name]) => [name, []]));
for (let round = 0; round <= ROUNDS; round++) {
  for (let i = 0; i < phases.length; i++) {
    const [name, fn, mem] = phases[(i + round) % phases.length];
    const m = await measure(fn, mem);
    process.stderr.write(`round ${round}${round === 0 ? ' (warm-up)' : ''}: ${name} ${m.wallMs.toFixed(0)} ms wall, ${m.cpuMs.toFixed(0)} ms CPU\n`);
    if (round > 0) results[name].push(m);
  }
}
endpoints.A.stop();
endpoints.B.stop();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const med = (name, key) => median(results[name].map((r) => r[key]));
const perCall = (key) => {
  const dA = med('runtime A', key) - med('replay A', key);
  const dB = med('runtime B', key) - med('replay B', key);
  const tool = (dA - dB) / (counts.A.toolCalls - counts.B.toolCalls);
  const model = (dB - counts.B.toolCalls * tool) / counts.B.modelCalls;
  return { tool: tool * 1000, model: model * 1000 };
};
const cpu = perCall('cpuMs');
const wall = perCall('wallMs');
console.log(`${SUBAGENTS} sub-agents; workload A: ${counts.A.modelCalls} model calls, ${counts.A.toolCalls} tool calls; B: ${counts.B.modelCalls} model calls, ${counts.B.toolCalls} tool calls; ${ROUNDS} rounds after a warm-up, medians`);
console.log('| phase | wall ms | client CPU ms |');
console.log('| --- | --- | --- |');
for (const [name] of phases) console.log(`| ${name} | ${med(name, 'wallMs').toFixed(1)} | ${med(name, 'cpuMs').toFixed(1)} |`);
console.log('');
console.log('| runtime\'s own cost over raw fetch | client CPU µs | wall µs |');
console.log('| --- | --- | --- |');
console.log(`| per model call | ${cpu.model.toFixed(1)} | ${wall.model.toFixed(1)} |`);
console.log(`| per tool call | ${cpu.tool.toFixed(1)} | ${wall.tool.toFixed(1)} |`);
console.log('');
console.log(`peak memory above the round's start during a workload-A episode (median): heap ${med('runtime A', 'heapMb').toFixed(1)} MiB, RSS ${med('runtime A', 'rssMb').toFixed(1)} MiB`);
