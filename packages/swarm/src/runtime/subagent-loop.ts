/**
 * The sub-agent loop: one sub-agent run on one assigned task — its model calls and its tool calls
 * (through the tool-call executor) until it answers, hits its cap, fails or is stopped. Its steps
 * are its model calls, each counted in the record as it starts and checked against the budget
 * first. Below `depth` it may delegate too: it then has its own frame (its model calls are the
 * main steps of its nested entry, spec §5.2) and `create_subagent` / `assign_task`.
 *
 * @module
 */
import type { OpenSpan } from '../telemetry/swarm-telemetry.js';
import type { Lease } from '../tools/semaphore.js';
import { AgentFrame } from './agent-frame.js';
import { delegationProviders, type Assignment, type SubAgentOutcome } from './delegation-tools.js';
import { dispatchCalls } from './dispatch.js';
import { EpisodeStopped, SwarmProviderError } from './errors.js';
import { agentToolsOf, type AgentTools, type EpisodeState } from './episode-state.js';
import { callModel, modelName, type ModelReply } from './model-call.js';
import { replyAttributes } from './reply-attributes.js';
import { Conversation } from './transcript.js';

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
  for (;;) {
    if (state.budgetExhausted) return end({ text: 'stopped: the critical-step budget is spent', finished: false }, 'budget');
    if (calls() >= s.limits.subagent_steps) return end({ text: `stopped at its cap of ${s.limits.subagent_steps} model calls`, finished: false }, 'step_cap');
    if (!(own === undefined ? state.fits(frame, slot) : state.fits(own, 'main'))) {
      s.onEvent({ type: 'budget-refused', who: 'subagent', agent: a.agent });
      state.exhaust();
      return end({ text: 'stopped: the critical-step budget is spent', finished: false }, 'budget');
    }
    if (own === undefined) frame.countCall(slot);
    else own.openTurn();
    const chat = telemetry.chat(modelName(s.subagentModel), span, clock.now());
    let reply: ModelReply;
    try {
      reply = await callModel({ model: s.subagentModel, system: a.systemPrompt, messages: conversation.messages, tools: tools.set, signal: state.signal, retry: s.retry });
    } catch (err) {
      const stopped = err instanceof EpisodeStopped;
      telemetry.end(chat, clock.now(), { type: stopped ? 'aborted' : 'provider', message: String(err) });
      if (stopped) return end({ text: 'stopped: the critical-step budget is spent', finished: false }, 'budget');
      if (err instanceof SwarmProviderError) return end({ text: `its model failed: ${err.message}`, finished: false }, 'provider');
      throw err;
    }
    telemetry.end(chat, clock.now(), undefined, replyAttributes(reply));
    conversation.assistant(reply);
    if (reply.toolCalls.length === 0) return end({ text: reply.text, finished: true });
    conversation.toolResults(await dispatchCalls(state, reply.toolCalls, tools.box, span, lease));
  }
}
