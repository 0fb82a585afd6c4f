/**
 * The orchestrator's `create_subagent` and `assign_task` as a tool provider: run through the
 * tool-call executor like every other tool, `assign_task` bounded by the sub-agent pool and never
 * cut by the tool timeout.
 *
 * @module
 */
import type { OpenSpan } from '../telemetry/swarm-telemetry.js';
import type { Lease } from '../tools/semaphore.js';
import { stringTool } from '../tools/string-tool.js';
import { ToolCallError } from '../tools/tool-call-error.js';
import { toolArgsOf } from '../tools/tool-args.js';
import type { ToolProvider } from '../tools/tool-provider.js';
import type { AgentFrame } from './agent-frame.js';
import type { EpisodeState } from './episode-state.js';
import { ORCHESTRATOR_TOOLS } from './orchestrator-tools.js';

/** An `assign_task` call to run: which sub-agent, with which system prompt, on what. */
export interface Assignment {
  readonly callId: string;
  readonly agent: string;
  readonly systemPrompt: string;
  readonly prompt: string;
}

/** How a sub-agent run ended. */
export interface SubAgentOutcome {
  /** Its final message, or why it did not finish. */
  readonly text: string;
  /** Whether it finished its task. */
  readonly finished: boolean;
}

/** Runs one sub-agent under its `assign_task` span, holding `lease`, a place in the pool. */
export type SubAgentRunner = (assignment: Assignment, parent: OpenSpan, lease: Lease | undefined) => Promise<SubAgentOutcome>;

/**
 * The `create_subagent` and `assign_task` providers of one delegating agent (its `frame`):
 * definitions are its own, their count and the pool the episode's. `assign_task` alone waits for
 * a place in the pool (a definition never waits behind running sub-agents).
 */
export function delegationProviders(state: EpisodeState, frame: AgentFrame, runSubAgent: SubAgentRunner): ToolProvider[] {
  const create = stringTool(ORCHESTRATOR_TOOLS.create_subagent, (args) => {
    const name = args['name'] as string;
    if (name.trim() === '') throw new ToolCallError('create_subagent needs a non-empty "name"');
    if (frame.definitions.has(name)) throw new ToolCallError(`a sub-agent named ${JSON.stringify(name)} is already defined`);
    if (state.defined >= state.settings.maxSubagents) {
      throw new ToolCallError(`at most ${state.settings.maxSubagents} sub-agents can be defined in an episode`);
    }
    frame.definitions.set(name, args['system_prompt'] as string);
    state.defined++;
    state.settings.onEvent({ type: 'subagent-created', name, systemPrompt: args['system_prompt'] as string });
    return `sub-agent ${JSON.stringify(name)} defined`;
  });
  const assignSpec = ORCHESTRATOR_TOOLS.assign_task;
  const assign = {
    ...stringTool(assignSpec, () => undefined),
    check(input: unknown) {
      const args = toolArgsOf(input, assignSpec);
      if (!args.ok) return args;
      const agent = args.args['agent'] as string;
      const systemPrompt = frame.definitions.get(agent);
      if (systemPrompt === undefined) {
        const known = [...frame.definitions.keys()];
        return { ok: false as const, error: `error: no sub-agent named ${JSON.stringify(agent)}; ${known.length === 0 ? 'define one with create_subagent first' : `defined: ${known.join(', ')}`}` };
      }
      return { ok: true as const, value: { agent, systemPrompt, prompt: args.args['prompt'] as string } };
    },
    async run(input: unknown, context: { callId: string; span: OpenSpan; lease: Lease | undefined }) {
      const a = input as Omit<Assignment, 'callId'>;
      if (state.budgetExhausted || !state.fits(frame, 'new-sub')) {
        state.settings.onEvent({ type: 'budget-refused', who: 'new-subagent', agent: a.agent });
        if (!state.budgetExhausted) state.exhaust();
        throw new ToolCallError('not run: the critical-step budget is spent');
      }
      const outcome = await runSubAgent({ ...a, callId: context.callId }, context.span, context.lease);
      if (!outcome.finished) throw new ToolCallError(`sub-agent ${JSON.stringify(a.agent)} did not finish (${outcome.text})`, 'subagent_unfinished');
      if (frame.depth === 0) state.finishedAnswers.push(outcome.text);
      return outcome.text;
    },
  };
  return [
    { name: 'create_subagent', tools: [create], timed: false },
    { name: 'assign_task', tools: [assign], limiter: state.pool, timed: false },
  ];
}
