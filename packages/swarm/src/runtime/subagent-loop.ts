/**
 * The sub-agent loop: one sub-agent run on one assigned task — its model calls and its tool calls
 * (through the tool-call executor) until it answers, hits its cap, fails or is stopped. Its steps
 * are its model calls, each counted in the live record as it starts and checked against the
 * budget first.
 *
 * @module
 */
import type { OpenSpan } from '../telemetry/swarm-telemetry.js';
import type { Lease } from '../tools/semaphore.js';
import type { Assignment, SubAgentOutcome } from './delegation-tools.js';
import { dispatchCalls } from './dispatch.js';
import { EpisodeStopped, SwarmProviderError } from './errors.js';
import type { EpisodeState } from './episode-state.js';
import { callModel, modelName, type ModelReply } from './model-call.js';
import { replyAttributes } from './reply-attributes.js';
import { Conversation } from './transcript.js';

/** Run one sub-agent on its assignment, under its `assign_task` span. */
export async function runSubAgent(state: EpisodeState, a: Assignment, parent: OpenSpan, _lease: Lease | undefined): Promise<SubAgentOutcome> {
  const s = state.settings;
  const { telemetry, clock } = state;
  const slot = state.live.startSubAgent();
  const span = telemetry.agent(a.agent, parent, clock.now(), a.prompt);
  const tools = state.subagentTools;
  const conversation = new Conversation(a.systemPrompt, a.prompt);
  const end = (outcome: SubAgentOutcome, error?: string): SubAgentOutcome => {
    const at = clock.now();
    state.live.endSubAgent(slot, outcome.finished);
    telemetry.end(span, at, error === undefined ? undefined : { type: error, message: outcome.text }, { 'parl.subagent.steps': slot.steps });
    return outcome;
  };
  for (;;) {
    if (state.budgetExhausted) return end({ text: 'stopped: the critical-step budget is spent', finished: false }, 'budget');
    if (slot.steps >= s.limits.subagent_steps) return end({ text: `stopped at its cap of ${s.limits.subagent_steps} model calls`, finished: false }, 'step_cap');
    if (!state.fits(slot)) {
      state.exhaust();
      return end({ text: 'stopped: the critical-step budget is spent', finished: false }, 'budget');
    }
    slot.steps++;
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
    conversation.toolResults(await dispatchCalls(state, reply.toolCalls, tools.box, span));
  }
}
