/**
 * The five scenarios as a hand-written agent loop instrumented with the `langsmith` SDK's
 * `traceable` alone (no framework): each model call a `traceable` with `run_type: "llm"` answering
 * from a script, each tool a `traceable` with `run_type: "tool"` (a sub-agent is a `chain`
 * run by an `ask_<name>` tool; one reply's tool calls run at once), each agent a `chain`. This is
 * what LangSmith's OpenTelemetry mode does export as spans (see ./langsmith-otel.ts).
 */
import { traceable } from 'langsmith/traceable';
import { sleep } from './write-fixture.js';

interface Message {
  role: 'user' | 'assistant' | 'tool';
  content: string;
}
interface Reply {
  content: string;
  tool_calls: { name: string; input: string }[];
}
type Step = (messages: Message[]) => Reply | Error;
type Tool = (input: string) => Promise<string>;

const calls = (...list: [string, string][]): Reply => ({ content: '', tool_calls: list.map(([name, input]) => ({ name, input })) });
const text = (content: string): Reply => ({ content, tool_calls: [] });
const userText = (m: Message[]) => m.find((x) => x.role === 'user')?.content ?? '';
const lastToolResult = (m: Message[]) => [...m].reverse().find((x) => x.role === 'tool')?.content ?? '';

/** A scripted chat model: one reply per call, after `delayMs`. */
function scriptedModel(steps: Step[], delayMs: number) {
  let n = 0;
  return traceable(
    async (messages: Message[]): Promise<Reply> => {
      await sleep(delayMs);
      const out = (steps[Math.min(n++, steps.length - 1)] as Step)(messages);
      if (out instanceof Error) throw out;
      return out;
    },
    { name: 'ScriptedChatModel', run_type: 'llm' },
  );
}

/** An agent: model, then its reply's tool calls at once, until a reply without tool calls. */
function agent(name: string, steps: Step[], delayMs: number, tools: Record<string, Tool>) {
  const model = scriptedModel(steps, delayMs);
  return traceable(
    async (input: string): Promise<string> => {
      const messages: Message[] = [{ role: 'user', content: input }];
      for (;;) {
        const reply = await model(messages);
        messages.push({ role: 'assistant', content: reply.content });
        if (reply.tool_calls.length === 0) return reply.content;
        const results = await Promise.all(reply.tool_calls.map((c) => (tools[c.name] as Tool)(c.input).catch((err: Error) => `error: ${err.message}`)));
        for (const r of results) messages.push({ role: 'tool', content: r });
      }
    },
    { name, run_type: 'chain' },
  );
}

const lookup = traceable(async (q: string) => { await sleep(20); return `notes on ${q}`; }, { name: 'lookup', run_type: 'tool' });

/** An agent exposed as a tool `ask_<name>`. */
function agentTool(name: string, run: Tool): [string, Tool] {
  return [`ask_${name}`, traceable((input: string) => run(input), { name: `ask_${name}`, run_type: 'tool' })];
}

function worker(name: string, lookups: number, fails = false): [string, Tool] {
  const steps: Step[] = [];
  for (let i = 0; i < lookups; i++) steps.push((m) => calls(['lookup', `${userText(m)} #${i}`]));
  steps.push(fails ? () => new Error(`${name}: the model provider returned 500`) : (m) => text(`${name} report: ${userText(m).toUpperCase()} is settled (${lookups} sources)`));
  return agentTool(name, agent(name, steps, 40, { lookup }));
}

const orchestrate = (steps: Step[], tools: [string, Tool][], prompt: string) => agent('orchestrator', steps, 30, Object.fromEntries(tools))(prompt);

/** The scenarios, by fixture name. */
export const TRACEABLE_SCENARIOS: Record<string, () => Promise<unknown>> = {
  'parallel-swarm': () => orchestrate([() => calls(['ask_alpha', 'alpha'], ['ask_beta', 'beta'], ['ask_gamma', 'gamma']), () => text('done')], [worker('alpha', 1), worker('beta', 2), worker('gamma', 0)], 'compare three topics'),
  'serial-collapse': () => orchestrate([() => calls(['ask_alpha', 'alpha']), () => calls(['ask_beta', 'beta']), () => calls(['ask_gamma', 'gamma']), () => text('done')], [worker('alpha', 1), worker('beta', 2), worker('gamma', 0)], 'compare three topics'),
  'dependent-pipeline': () => orchestrate([() => calls(['ask_alpha', 'alpha']), (m) => calls(['ask_beta', `check this: ${lastToolResult(m)}`]), () => text('done')], [worker('alpha', 1), worker('beta', 1)], 'draft then check'),
  'failing-subagent': () => orchestrate([() => calls(['ask_alpha', 'alpha'], ['ask_flaky', 'flaky']), () => text('done, one failed')], [worker('alpha', 1), worker('flaky', 1, true)], 'two topics'),
  'nested-subagents': () => {
    const lead = agentTool('lead', agent('lead', [() => calls(['ask_delta', 'delta'], ['ask_epsilon', 'epsilon']), () => text('lead report: delta and epsilon settled')], 30, Object.fromEntries([worker('delta', 1), worker('epsilon', 1)])));
    return orchestrate([() => calls(['ask_lead', 'lead the deep dive'], ['ask_alpha', 'alpha']), () => text('done')], [lead, worker('alpha', 2)], 'deep dive');
  },
};
