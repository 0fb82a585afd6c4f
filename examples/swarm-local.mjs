// The Agent Swarm on a local model file: the TypeScript counterpart of open-parl's Hugging Face
// quick start. The orchestrator (the model in the file) decides how many sub-agents to create and
// what to assign them; each episode is measured in critical steps and gets the PARL reward.
//
//   npx tsx swarm-local.mjs path/to/model.gguf [tasks]
//
// The file is served on a loopback OpenAI-compatible endpoint by node-llama-cpp (this repository's
// test-support server, CPU, one thread); any other OpenAI-compatible server (llama.cpp's
// `llama-server -m model.gguf`, vLLM, Ollama) works the same way: pass its URL to endpointModel.
import { basename } from 'node:path';
import { criticalSteps } from '@parl/core';
import { endpointModel, generateSuite, LIMIT_PRESETS, runEpisode, scriptedLookupModel } from '@parl/swarm';
import { startLocalLlmServer } from '@parl/test-support/local-llm/server';

const [modelFile, tasksArg = '2'] = process.argv.slice(2);
if (modelFile === undefined) {
  console.error('usage: npx tsx swarm-local.mjs MODEL.gguf [TASKS]');
  process.exit(2);
}
const server = await startLocalLlmServer({ modelPath: modelFile, contextSize: 8192 });
try {
  const orchestrator = endpointModel(server.baseURL, server.modelName);
  // Every setting but the orchestrator has a default (EPISODE_DEFAULTS); these change four of them.
  const settings = {
    orchestrator,
    // Frozen sub-agents: the look-up program (no model calls); the default is the orchestrator's model.
    subagentModel: scriptedLookupModel(),
    concurrency: 4,
    limits: LIMIT_PRESETS.browsecomp,
    trainingStep: 0,
  };
  console.log(`model ${basename(modelFile)} on ${server.baseURL}`);
  for (const task of generateSuite('wide', { tasks: Number(tasksArg), seed: 1, entities: 3, attributes: 1 })) {
    const { record } = await runEpisode(task, settings);
    const cs = criticalSteps(record.stages);
    console.log(
      `${task.id}: ${record.stop_reason}, sub-agents ${record.num_subagents}, critical steps ${cs.critical_steps} ` +
        `(total ${cs.total_steps}), r_perf ${record.r_perf.toFixed(3)}, reward ${record.total_reward.toFixed(4)}`,
    );
  }
} finally {
  await server.close();
}
