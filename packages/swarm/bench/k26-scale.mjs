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
import { interleaved, modelOn, plansOf, replayDoGenerate, replayFetch, startEndpoint, swarmPackage } from './replay.mjs';

const { generateSuite, runEpisode } = await swarmPackage();
const SUBAGENTS = Number(process.argv[2] ?? 300);
const ROUNDS = Number(process.argv[3] ?? 5);
const WORKLOADS = { A: '7,6', B: '1,1' };
const [task] = generateSuite('wide', { tasks: 1, seed: 1 });

function settingsFor(model) {
  return { orchestrator: model, subagentModel: model, concurrency: SUBAGENTS, maxSubagents: SUBAGENTS, trainingStep: 0 };
}

const endpoints = { A: await startEndpoint(SUBAGENTS, WORKLOADS.A), B: await startEndpoint(SUBAGENTS, WORKLOADS.B) };
const plans = {};
const counts = {};
const models = {};
for (const w of ['A', 'B']) {
  const log = { bodies: [], calls: [] };
  const result = await runEpisode(task, settingsFor(modelOn(endpoints[w].url, log)));
  const { record } = result;
  // Older builds have no executor count: their tool calls are then the orchestrator's plus the sub-agents' (known from the workload).
  const toolCalls = result.toolCalls ?? record.orchestrator_tool_calls + SUBAGENTS * WORKLOADS[w].split(',').map(Number).reduce((a, b) => a + b, 0);
  plans[w] = plansOf(log);
  counts[w] = { modelCalls: log.calls.length, toolCalls, subagents: record.num_subagents, errors: record.tool_errors };
  if (record.num_subagents !== SUBAGENTS || record.tool_errors !== 0) throw new Error(`workload ${w}: ${JSON.stringify(counts[w])}`);
  models[w] = modelOn(endpoints[w].url, undefined);
}
const phases = [];
for (const w of ['A', 'B']) {
  phases.push([`fetch ${w}`, () => replayFetch(plans[w].fetch)]);
  phases.push([`doGenerate ${w}`, () => replayDoGenerate(plans[w].doGenerate, models[w])]);
  phases.push([`runtime ${w}`, async () => {
    const { toolCalls } = await runEpisode(task, settingsFor(models[w]));
    if (toolCalls !== undefined && toolCalls !== counts[w].toolCalls) throw new Error(`workload ${w}: ${toolCalls} tool calls, ${counts[w].toolCalls} before`);
  }]);
}
const med = await interleaved(phases, ROUNDS);
endpoints.A.stop();
endpoints.B.stop();

const ownCost = (baseline, key) => {
  const dA = med('runtime A', key) - med(`${baseline} A`, key);
  const dB = med('runtime B', key) - med(`${baseline} B`, key);
  const tool = (dA - dB) / (counts.A.toolCalls - counts.B.toolCalls);
  const model = (dB - counts.B.toolCalls * tool) / counts.B.modelCalls;
  return { tool: tool * 1000, model: model * 1000 };
};
console.log(`${SUBAGENTS} sub-agents; workload A: ${counts.A.modelCalls} model calls, ${counts.A.toolCalls} tool calls; B: ${counts.B.modelCalls} model calls, ${counts.B.toolCalls} tool calls; ${ROUNDS} rounds after a warm-up, medians`);
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
