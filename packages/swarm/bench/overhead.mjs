// The swarm runtime's own cost per model call, against the same calls made by a raw `fetch` and
// by the provider's own `doGenerate` (replays of what the runtime sent, in the same shape), with
// the endpoint in its own process (./fast-endpoint.ts) so that this process's CPU is the client's:
//
//   in flight   one orchestrator call assigning IN_FLIGHT sub-agents, each answering at once (so
//               IN_FLIGHT model calls are in flight together), then the orchestrator's answer:
//               the runtime's time against raw fetch's for the same calls;
//   flat        a single agent making T turns of one tool call each, then answering, for T = 5,
//               50 and 500 (its last prompt holds 12, 102 and 1,002 messages). The runtime's own
//               cost of an episode (runtime − doGenerate) grows by the same amount per call from
//               T = 5 to 50 (calls on 12–102 messages) as from 50 to 500 (calls on 102–1,002
//               messages) when no call's cost grows with the conversation.
//
// Warm and interleaved (a discarded warm-up round, then ROUNDS rounds in a rotated order);
// medians.
//
//   pnpm --filter @parl/swarm build && node --expose-gc packages/swarm/bench/overhead.mjs [IN_FLIGHT] [ROUNDS]
//   (SWARM_DIST=/path/to/dist measures another build of the package)
import { interleaved, modelOn, plansOf, replayDoGenerate, replayFetch, startEndpoint, swarmPackage } from './replay.mjs';

const { generateSuite, runEpisode } = await swarmPackage();
const IN_FLIGHT = Number(process.argv[2] ?? 100);
const ROUNDS = Number(process.argv[3] ?? 5);
const [task] = generateSuite('wide', { tasks: 1, seed: 1 });

const LONG = { orchestrator_steps: 1000, subagent_steps: 50 };
const scenarios = {
  'in flight': { subagents: IN_FLIGHT, toolCalls: '0', settings: { concurrency: IN_FLIGHT, maxSubagents: IN_FLIGHT }, fetch: true },
  'T = 5': { subagents: 0, toolCalls: Array(5).fill(1).join(','), settings: { singleAgent: true, limits: LONG } },
  'T = 50': { subagents: 0, toolCalls: Array(50).fill(1).join(','), settings: { singleAgent: true, limits: LONG } },
  'T = 500': { subagents: 0, toolCalls: Array(500).fill(1).join(','), settings: { singleAgent: true, limits: LONG } },
};

const phases = [];
const counts = {};
const endpoints = [];
for (const [name, s] of Object.entries(scenarios)) {
  const endpoint = await startEndpoint(s.subagents, s.toolCalls);
  endpoints.push(endpoint);
  const settingsFor = (model) => ({ orchestrator: model, subagentModel: model, trainingStep: 0, ...s.settings });
  const log = { bodies: [], calls: [] };
  const { messages } = await runEpisode(task, settingsFor(modelOn(endpoint.url, log)));
  const plans = plansOf(log);
  const model = modelOn(endpoint.url, undefined);
  counts[name] = { modelCalls: log.calls.length, messages: messages.length };
  if (s.fetch) phases.push([`${name}: fetch`, () => replayFetch(plans.fetch)]);
  phases.push([`${name}: doGenerate`, () => replayDoGenerate(plans.doGenerate, model)]);
  phases.push([`${name}: runtime`, () => runEpisode(task, settingsFor(model))]);
}
const med = await interleaved(phases, ROUNDS);
for (const e of endpoints) e.stop();

console.log(`${ROUNDS} rounds after a warm-up, medians; CPU is this process's (the endpoint runs in its own)`);
const n = counts['in flight'].modelCalls;
const per = (phase, key) => (med(`in flight: ${phase}`, key) * 1000) / n;
console.log(`\n${IN_FLIGHT} model calls in flight (${n} model calls in the episode)`);
console.log('| client | wall µs a call | CPU µs a call | × fetch, wall | × fetch, CPU |');
console.log('| --- | --- | --- | --- | --- |');
for (const c of ['fetch', 'doGenerate', 'runtime']) console.log(`| ${c} | ${per(c, 'wallMs').toFixed(1)} | ${per(c, 'cpuMs').toFixed(1)} | ${(per(c, 'wallMs') / per('fetch', 'wallMs')).toFixed(2)} | ${(per(c, 'cpuMs') / per('fetch', 'cpuMs')).toFixed(2)} |`);
const own = (name) => med(`${name}: runtime`, 'cpuMs') - med(`${name}: doGenerate`, 'cpuMs');
console.log('\nThe cost per call as the conversation grows (a single agent, one tool call a turn)');
console.log('| T (turns) | model calls | messages at the end | doGenerate CPU ms | runtime CPU ms | runtime\'s own CPU ms (over doGenerate) |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const name of ['T = 5', 'T = 50', 'T = 500']) console.log(`| ${name.slice(4)} | ${counts[name].modelCalls} | ${counts[name].messages} | ${med(`${name}: doGenerate`, 'cpuMs').toFixed(1)} | ${med(`${name}: runtime`, 'cpuMs').toFixed(1)} | ${own(name).toFixed(1)} |`);
const short = ((own('T = 50') - own('T = 5')) * 1000) / (counts['T = 50'].modelCalls - counts['T = 5'].modelCalls);
const long = ((own('T = 500') - own('T = 50')) * 1000) / (counts['T = 500'].modelCalls - counts['T = 50'].modelCalls);
console.log(`\nown CPU per added call (a model call and its tool call): ${short.toFixed(1)} µs on 12–102 messages, ${long.toFixed(1)} µs on 102–1,002 messages (ratio ${(long / short).toFixed(2)})`);
