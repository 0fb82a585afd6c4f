// An AI SDK app with the Agent Swarm where a ToolLoopAgent would go: SwarmAgent streams the
// orchestrator's text and what the swarm does (sub-agents created, started, finished; stages
// closed; calls the budget refused), then the episode's exact record and PARL reward.
//
//   node swarm-agent-app.mjs                      # scripted models: no endpoint needed
//   node swarm-agent-app.mjs URL MODEL            # an orchestrator on an OpenAI-compatible endpoint
//
// The tools are a suite task's corpus (search, open) — module tools; MCP tools plug in the same
// way through `toolProviders`.
import { endpointModel, generateSuite, scriptedLookupModel, scriptedOrchestrator, SwarmAgent } from '@parl/swarm';

const [baseUrl, modelName] = process.argv.slice(2);
const [task] = generateSuite('wide', { tasks: 1, seed: 7, entities: 4, attributes: 2 });
const agent = new SwarmAgent({
  model: baseUrl === undefined ? scriptedOrchestrator('parallel') : endpointModel(baseUrl, modelName ?? 'default'),
  subagentModel: scriptedLookupModel(),
  tools: task.tools,
  score: (answer) => task.score(answer),
  concurrency: 3,
  budget: 40,
});

const result = await agent.stream({ prompt: task.prompt });
for await (const event of result.swarmEvents) {
  switch (event.type) {
    case 'subagent-created': console.log(`created   ${event.name}`); break;
    case 'subagent-started': console.log(`started   ${event.name}: ${event.prompt}`); break;
    case 'subagent-finished': console.log(`finished  ${event.name} in ${event.steps} steps${event.finished ? '' : ' (unfinished)'}`); break;
    case 'stage-closed': console.log(`stage ${event.stage} closed with ${event.subagents} sub-agent(s)`); break;
    case 'budget-refused': console.log(`budget refused a call of the ${event.who}${event.agent ? ` ${event.agent}` : ''}`); break;
    case 'orchestrator-text': break;
  }
}
console.log(`answer:\n${await result.text}`);
const { record, reward } = await result.swarm;
console.log(`record: ${record.num_subagents} sub-agents, critical steps ${record.critical_steps}, total steps ${record.total_steps}, r_perf ${record.r_perf}`);
console.log(`reward: total ${reward.total_reward.toFixed(4)} (r_parallel ${reward.r_parallel.toFixed(4)}, r_finish ${reward.r_finish}, r_perf ${reward.r_perf})`);
