// What the swarm benchmarks share: the endpoint process (./fast-endpoint.ts), a model that records
// what the runtime sent (the request bodies, and the call options it gave the provider's
// doGenerate), the replays of those requests by raw fetch and by doGenerate in the same shape
// (the orchestrator's first call, every sub-agent's chain at once, the orchestrator's last), and
// one measurement (this process's CPU, wall time, peak heap and RSS).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';

/** The package under test: ../dist, or SWARM_DIST (another build, e.g. the last release's). */
export async function swarmPackage() {
  const dist = process.env.SWARM_DIST === undefined ? new URL('../dist/index.js', import.meta.url) : pathToFileURL(`${process.env.SWARM_DIST}/index.js`);
  return import(dist.href);
}

/** Start ./fast-endpoint.ts in its own process: SUBAGENTS assigned by the orchestrator, TOOL_CALLS per sub-agent call. */
export async function startEndpoint(subagents, toolCalls) {
  const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
  const child = spawn(tsx, [fileURLToPath(new URL('./fast-endpoint.ts', import.meta.url)), String(subagents), toolCalls], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [url] = await once(createInterface({ input: child.stdout }), 'line');
  process.once('exit', () => child.kill('SIGTERM'));
  return { url, stop: () => child.kill('SIGTERM') };
}

/** A model on `url`; with `log`, what it is asked is recorded (request bodies, and the call options given to doGenerate). */
export function modelOn(url, log) {
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
  return { first: orchestrator[0], last: orchestrator.length > 1 ? orchestrator[orchestrator.length - 1] : undefined, chains: [...chains.values()] };
}

/** The replay plans of a log: by raw fetch (bodies) and by doGenerate (call options). */
export function plansOf(log) {
  return {
    fetch: planOf(log.bodies, (r) => JSON.parse(r.body).tools?.some((t) => t.function.name === 'assign_task'), (r) => JSON.parse(r.body).messages.find((m) => m.role === 'user').content),
    doGenerate: planOf(log.calls, (c) => c.tools?.some((t) => t.name === 'assign_task'), (c) => c.prompt.find((m) => m.role === 'user').content[0].text),
  };
}

async function replay(plan, call) {
  if (plan.first !== undefined) await call(plan.first);
  await Promise.all(plan.chains.map(async (chain) => {
    for (const item of chain) await call(item);
  }));
  if (plan.last !== undefined) await call(plan.last);
}

async function post({ url, body }) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return res.json();
}

/** Replay a plan by raw fetch. */
export const replayFetch = (plan) => replay(plan, post);

/** Replay a plan through `model`'s doGenerate. */
export const replayDoGenerate = (plan, model) => replay(plan, (options) => model.doGenerate(options));

/** Run `fn` once: this process's CPU ms, wall ms, and the peak heap and RSS above the start (MiB). */
export async function measure(fn) {
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

/** Run `phases` ([name, fn]) warm and interleaved: a discarded warm-up round, then `rounds` rounds in a rotated order; each phase's measurements. */
export async function interleaved(phases, rounds) {
  const results = Object.fromEntries(phases.map(([name]) => [name, []]));
  for (let round = 0; round <= rounds; round++) {
    for (let i = 0; i < phases.length; i++) {
      const [name, fn] = phases[(i + round) % phases.length];
      const m = await measure(fn);
      process.stderr.write(`round ${round}${round === 0 ? ' (warm-up)' : ''}: ${name} ${m.wallMs.toFixed(0)} ms wall, ${m.cpuMs.toFixed(0)} ms CPU\n`);
      if (round > 0) results[name].push(m);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return (name, key) => median(results[name].map((r) => r[key]));
}
