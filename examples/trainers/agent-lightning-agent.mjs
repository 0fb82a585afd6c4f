// Agent Lightning: the swarm as an agent under its contract (no SDK of Agent Lightning's): the
// gateway's OPENAI_BASE_URL (…/rollout/{rid}/attempt/{aid}/v1) records the orchestrator's calls,
// AGL_TASK_INPUT is the task, and the reward goes to AGL_EVENT_URL as {event_type: "reward"}.
// SwarmAgent is the AI SDK agent Agent Lightning's own TypeScript example shows, with the swarm
// in it. The frozen sub-agents run on PARL_SUBAGENT_URL when given (their calls stay out of the
// trained rollout), else on the same gateway.
//
//   AGL_TASK_INPUT='{"suite":"wide","seed":17}' node agent-lightning-agent.mjs
import { endpointModel, generateSuite, SwarmAgent } from '@parl/swarm';

const task = JSON.parse(process.env.AGL_TASK_INPUT ?? '{}');
const [swarmTask] = generateSuite(task.suite ?? 'wide', { tasks: 1, seed: task.seed ?? 1 });
const model = endpointModel(process.env.OPENAI_BASE_URL, process.env.AGL_MODEL ?? 'policy', { PARL_API_KEY: process.env.OPENAI_API_KEY });
const subagentUrl = process.env.PARL_SUBAGENT_URL;
const agent = new SwarmAgent({
  model,
  ...(subagentUrl === undefined ? {} : { subagentModel: endpointModel(subagentUrl, process.env.PARL_SUBAGENT_MODEL ?? 'frozen', process.env, ['PARL_SUBAGENT_API_KEY']) }),
  tools: swarmTask.tools,
  score: (answer) => swarmTask.score(answer),
});
const { reward, record } = await agent.generate({ prompt: swarmTask.prompt });
if (process.env.AGL_EVENT_URL !== undefined) {
  const res = await fetch(process.env.AGL_EVENT_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY ?? ''}` },
    body: JSON.stringify({ event_type: 'reward', data: { value: reward.total_reward, critical_steps: record.critical_steps, num_subagents: record.num_subagents } }),
  });
  if (!res.ok) throw new Error(`reward event refused: HTTP ${res.status} ${await res.text()}`);
}
console.log(JSON.stringify({ reward: reward.total_reward, critical_steps: record.critical_steps, num_subagents: record.num_subagents }));
