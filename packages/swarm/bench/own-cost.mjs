// The swarm runtime's own CPU cost per model call and per tool call, with nothing else in the
// way: an instant in-process language model (a LanguageModelV3 whose doGenerate returns a ready
// reply: no HTTP, no provider) and the suite's corpus tools, at SUBAGENTS sub-agents. Two
// workloads with the same model calls (2 orchestrator + 3 per sub-agent):
//   A  each sub-agent makes 7 then 6 tool calls     B  each makes 1 then 1
// per tool call  = (CPU A − CPU B) / (tool calls A − tool calls B)
// per model call = (CPU B − tool calls B × per tool call) / model calls
// The tool calls are counted by the executor (EpisodeResult.toolCalls) where the build has it.
// Then the cost per call as the conversation grows: a single agent making T turns of one `open`
// call each, then answering, for T = 5, 50 and 500 (its last prompt holds 12, 102 and 1,002
// messages); the CPU per added call from T = 5 to 50 (calls on 12–102 messages) and from 50 to
// 500 (calls on 102–1,002 messages) are the same when no call's cost grows with the conversation.
// Warm and interleaved; medians of ROUNDS.
//
//   pnpm --filter @parl/swarm build && node --expose-gc packages/swarm/bench/own-cost.mjs [SUBAGENTS] [ROUNDS]
//   (SWARM_DIST=/path/to/dist measures another build of the package)
import { swarmPackage } from './replay.mjs';

const { generateSuite, runEpisode } = await swarmPackage();
const SUBAGENTS = Number(process.argv[2] ?? 300);
const ROUNDS = Number(process.argv[3] ?? 9);
const [task] = generateSuite('wide', { tasks: 1, seed: 1 });
const USAGE = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

/** An instant model: the orchestrator defines one sub-agent and assigns SUBAGENTS tasks, then answers; a sub-agent makes calls[i] `open` calls on its i-th call, then answers. */
function instantModel(calls) {
  const delegate = [
    { type: 'tool-call', toolCallId: 'c', toolName: 'create_subagent', input: '{"name":"w","system_prompt":"You look things up."}' },
    ...Array.from({ length: SUBAGENTS }, (_, i) => ({ type: 'tool-call', toolCallId: `a${i}`, toolName: 'assign_task', input: `{"agent":"w","prompt":"task ${i}"}` })),
  ];
  let modelCalls = 0;
  return {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'instant',
    supportedUrls: {},
    get calls() {
      return modelCalls;
    },
    async doGenerate(options) {
      modelCalls++;
      let turns = 0;
      for (const m of options.prompt) if (m.role === 'assistant') turns++;
      let content;
      if (options.tools?.some((t) => t.name === 'assign_task')) content = turns === 0 ? delegate : [{ type: 'text', text: 'final answer' }];
      else {
        const n = calls[turns] ?? 0;
        content = n === 0 ? [{ type: 'text', text: 'x | color | teal' }] : Array.from({ length: n }, (_, i) => ({ type: 'tool-call', toolCallId: `t${turns}-${i}`, toolName: 'open', input: `{"id":"doc-${1 + (i % 3)}"}` }));
      }
      return { content, finishReason: { unified: content[0].type === 'text' ? 'stop' : 'tool-calls', raw: undefined }, usage: USAGE, warnings: [] };
    },
    doStream() {
      throw new Error('instant model: doGenerate only');
    },
  };
}

async function episode(calls) {
  const model = instantModel(calls);
  global.gc?.();
  const c0 = process.cpuUsage();
  const result = await runEpisode(task, { orchestrator: model, subagentModel: model, concurrency: SUBAGENTS, maxSubagents: SUBAGENTS, trainingStep: 0 });
  const c = process.cpuUsage(c0);
  // Older builds have no executor count: the tool calls then are the orchestrator's plus the sub-agents' (known from the workload).
  const toolCalls = result.toolCalls ?? result.record.orchestrator_tool_calls + SUBAGENTS * calls.reduce((a, b) => a + b, 0);
  return { cpuMs: (c.user + c.system) / 1000, toolCalls, modelCalls: model.calls };
}

/** An instant single agent: an `open` call on each of its first `turns` calls, then its answer (O(1) a call). */
function instantAgent(turns) {
  let n = 0;
  const open = [{ type: 'tool-call', toolCallId: 'o', toolName: 'open', input: '{"id":"doc-1"}' }];
  const answer = [{ type: 'text', text: 'final answer' }];
  return {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'instant-agent',
    supportedUrls: {},
    async doGenerate() {
      const content = n++ < turns ? open.map((c) => ({ ...c, toolCallId: `o${n}` })) : answer;
      return { content, finishReason: { unified: content === answer ? 'stop' : 'tool-calls', raw: undefined }, usage: USAGE, warnings: [] };
    },
    doStream() {
      throw new Error('instant model: doGenerate only');
    },
  };
}

async function conversation(turns) {
  const model = instantAgent(turns);
  global.gc?.();
  const c0 = process.cpuUsage();
  const { messages } = await runEpisode(task, { orchestrator: model, singleAgent: true, limits: { orchestrator_steps: 1000, subagent_steps: 50 }, trainingStep: 0 });
  const c = process.cpuUsage(c0);
  return { cpuMs: (c.user + c.system) / 1000, messages: messages.length };
}

const A = [7, 6];
const B = [1, 1];
for (let i = 0; i < 3; i++) {
  await episode(A);
  await episode(B);
}
const runs = { A: [], B: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const [w, calls] of r % 2 === 0 ? [['A', A], ['B', B]] : [['B', B], ['A', A]]) runs[w].push(await episode(calls));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpu = (w) => median(runs[w].map((r) => r.cpuMs));
const tools = (w) => runs[w][0].toolCalls;
const models = runs.B[0].modelCalls;
const perTool = ((cpu('A') - cpu('B')) * 1000) / (tools('A') - tools('B'));
const perModel = (cpu('B') * 1000 - tools('B') * perTool) / models;
console.log(`${SUBAGENTS} sub-agents, an instant in-process model; ${ROUNDS} rounds after a warm-up, medians`);
console.log('| workload | model calls | tool calls | CPU ms an episode |');
console.log('| --- | --- | --- | --- |');
for (const w of ['A', 'B']) console.log(`| ${w} | ${runs[w][0].modelCalls} | ${tools(w)} | ${cpu(w).toFixed(1)} |`);
console.log(`\nthe runtime's own CPU: ${perModel.toFixed(1)} µs per model call, ${perTool.toFixed(1)} µs per tool call`);

const TURNS = [5, 50, 500];
for (const t of TURNS) await conversation(t);
const long = Object.fromEntries(TURNS.map((t) => [t, []]));
for (let r = 0; r < ROUNDS; r++) for (const t of r % 2 === 0 ? TURNS : [...TURNS].reverse()) long[t].push(await conversation(t));
const convCpu = (t) => median(long[t].map((r) => r.cpuMs));
console.log('\n| T (turns) | model calls | messages at the end | CPU ms an episode |');
console.log('| --- | --- | --- | --- |');
for (const t of TURNS) console.log(`| ${t} | ${t + 1} | ${long[t][0].messages} | ${convCpu(t).toFixed(2)} |`);
const shortSlope = ((convCpu(50) - convCpu(5)) * 1000) / 45;
const longSlope = ((convCpu(500) - convCpu(50)) * 1000) / 450;
console.log(`\nCPU per added call (a model call and its tool call): ${shortSlope.toFixed(1)} µs on 12–102 messages, ${longSlope.toFixed(1)} µs on 102–1,002 messages (× ${(longSlope / shortSlope).toFixed(2)})`);
