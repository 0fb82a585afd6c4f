/**
 * A sub-agent: the one agent loop on one assigned task, with the sub-agents' tools, its step cap
 * and its place in the budget, until it answers, hits its cap, fails or is stopped. Its steps are
 * its model calls, each counted in the record as it starts and checked against the budget first.
 * Below `depth` it may delegate too: it then has its own frame (its model calls are the main
 * steps of its nested entry, spec §5.2) and `create_subagent` / `assign_task`.
 *
 * @module
 */
import type { OpenSpan } from '../telemetry/swarm-telemetry.js';
import type { Lease } from '../tools/semaphore.js';
import { AgentFrame } from './agent-frame.js';
import { runAgentLoop } from './agent-loop.js';
import { agentToolsOf, type AgentTools } from './agent-tools.js';
import { delegationProviders, type Assignment, type SubAgentOutcome } from './delegation-tools.js';
import { EpisodeStopped, SwarmProviderError } from './errors.js';
import type { EpisodeState } from './episode-state.js';
import { agentRules, type StopRuleName } from './stop-rules.js';
import { Conversation } from './transcript.js';

const SPENT = 'stopped: the critical-step budget is spent';

/** Run one sub-agent of `frame`'s current turn on its assignment, under its `assign_task` span, holding `lease`. */
export async function runSubAgent(state: EpisodeState, frame: AgentFrame, a: Assignment, parent: OpenSpan, lease: Lease | undefined): Promise<SubAgentOutcome> {
  const s = state.settings;
  const { telemetry, clock } = state;
  const slot = frame.startSubAgent();
  const span = telemetry.agent(a.agent, parent, clock.now(), a.prompt);
  if (frame.depth === 0) state.turnSubagents++;
  s.onEvent({ type: 'subagent-started', name: a.agent, callId: a.callId, prompt: a.prompt });
  // Below the deepest level a sub-agent delegates too, from its own frame.
  const own = frame.depth + 1 < s.depth ? new AgentFrame(frame.depth + 1, { frame, slot }) : undefined;
  const tools: AgentTools = own === undefined
    ? state.subagentTools
    : agentToolsOf([...delegationProviders(state, own, (sub, subParent, subLease) => runSubAgent(state, own, sub, subParent, subLease)), ...state.subagentProviders]);
  const conversation = new Conversation(a.systemPrompt, a.prompt);
  const calls = (): number => own?.ownCalls ?? slot.steps;
  const end = (outcome: SubAgentOutcome, error?: string): SubAgentOutcome => {
    const at = clock.now();
    frame.endSubAgent(slot, outcome.finished);
    s.onEvent({ type: 'subagent-finished', name: a.agent, callId: a.callId, steps: calls(), finished: outcome.finished, text: outcome.text });
    if (s.tokenTrajectories) state.subagentTranscripts.push({ agent: a.agent, finished: outcome.finished, messages: conversation.transcript });
    telemetry.end(span, at, error === undefined ? undefined : { type: error, message: outcome.text }, { 'parl.subagent.steps': calls() });
    return outcome;
  };
  const caller = state.subagentCaller;
  let stop: StopRuleName;
  let text: string | undefined;
  try {
    const ended = await runAgentLoop(state, {
      caller,
      system: a.systemPrompt,
      conversation,
      tools,
      span,
      rules: agentRules({ cancel: state.cancel, episode: state, cap: s.limits.subagent_steps, fits: () => (own === undefined ? state.fits(frame, slot) : state.fits(own, 'main')), caller }),
      steps: calls,
      startCall: () => (own === undefined ? frame.countCall(slot) : own.openTurn()),
      lease,
    });
    stop = ended.stop;
    text = ended.lastReply?.text;
  } catch (err) {
    if (err instanceof EpisodeStopped) return end({ text: state.cancel.aborted ? 'stopped: the episode was cancelled' : SPENT, finished: false }, state.cancel.aborted ? 'cancelled' : 'budget');
    if (err instanceof SwarmProviderError) return end({ text: `its model failed: ${err.message}`, finished: false }, 'provider');
    throw err;
  }
  switch (stop) {
    case 'answered':
      return end({ text: text ?? '', finished: true });
    case 'cancelled':
      return end({ text: 'stopped: the episode was cancelled', finished: false }, 'cancelled');
    case 'step_cap':
      return end({ text: `stopped at its cap of ${s.limits.subagent_steps} model calls`, finished: false }, 'step_cap');
    case 'context':
      return end({ text: 'stopped: its next prompt would not fit the model\'s context', finished: false }, 'context');
    case 'budget':
      s.onEvent({ type: 'budget-refused', who: 'subagent', agent: a.agent });
      state.exhaust();
      return end({ text: SPENT, finished: false }, 'budget');
    case 'budget_spent':
      return end({ text: SPENT, finished: false }, 'budget');
  }
}
