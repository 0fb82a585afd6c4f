// The Agent Swarm on a model you serve yourself: the TypeScript counterpart of open-parl's Hugging
// Face quick start. The orchestrator (your model) decides how many sub-agents to create and what to
// assign them; each episode is measured in critical steps and gets the PARL reward.
//
//   node swarm-local.mjs --base-url URL --model NAME [TASKS]
//
// Any OpenAI-compatible server works: llama.cpp's `llama-server -m model.gguf --jinja`, vLLM,
// SGLang, Ollama, LM Studio. It needs only the published packages (npm install @parl/core
// @parl/swarm). In a checkout of this repository, `npx tsx examples/serve-tiny-model.mjs` writes
// a tiny test model and serves it on a loopback endpoint, printing the two flags to pass here.
import { parseArgs } from 'node:util';
import { criticalSteps } from '@parl/core';
import { endpointModel, generateSuite, LIMIT_PRESETS, runEpisode, scriptedLookupModel } from '@parl/swarm';

const { values, positionals } = parseArgs({ options: { 'base-url': { type: 'string' }, model: { type: 'string' } }, allowPositionals: true });
const baseUrl = values['base-url'];
const model = values.model;
if (baseUrl === undefined || model === undefined) {
  console.error('usage: node swarm-local.mjs --base-url URL --model NAME [TASKS]   (e.g. --base-url http://127.0.0.1:8080/v1 for llama-server)');
  process.exit(2);
}
const tasks = Number(positionals[0] ?? '2');
// Every setting but the orchestrator has a default (EPISODE_DEFAULTS); these change four of them.
const settings = {
  orchestrator: endpointModel(baseUrl, model),
  // Frozen sub-agents: the look-up program (no model calls); the default is the orchestrator's model.
  subagentModel: scriptedLookupModel(),
  concurrency: 4,
  limits: LIMIT_PRESETS.browsecomp,
  trainingStep: 0,
};
console.log(`model ${model} on ${baseUrl}`);
for (const task of generateSuite('wide', { tasks, seed: 1, entities: 3, attributes: 1 })) {
  const { record } = await runEpisode(task, settings);
  const cs = criticalSteps(record.stages);
  console.log(
    `${task.id}: ${record.end_reason}, sub-agents ${record.num_subagents}, critical steps ${cs.critical_steps} ` +
      `(total ${cs.total_steps}), r_perf ${record.r_perf.toFixed(3)}, reward ${record.total_reward.toFixed(4)}`,
  );
}
