/**
 * The one agent loop, the orchestrator's and every sub-agent's (as the AI SDK's `generateText`
 * loops over steps): ask the stop rules; count the call in the record; one model call under its
 * `chat` span; the reply into the conversation; its tool calls through the dispatch; again.
 * Agents differ only in their tools, their rules and what they do with a reply.
 *
 * @module
 */
import type { OpenSpan } from '../telemetry/swarm-telemetry.js';
import type { Lease } from '../tools/semaphore.js';
import type { AgentTools } from './agent-tools.js';
import { dispatchCalls } from './dispatch.js';
import { EpisodeStopped, SwarmProviderError } from './errors.js';
import type { EpisodeState } from './episode-state.js';
import type { ModelCaller, ModelReply, ModelTurn } from './model-caller.js';
import { replyAttributes } from './reply-attributes.js';
import { firstStop, type StopRule, type StopRuleName } from './stop-rules.js';
import type { Conversation } from './transcript.js';

/** One agent, as the loop runs it. */
export interface LoopAgent {
  /** Makes its model calls. */
  readonly caller: ModelCaller;
  /** Its system prompt. */
  readonly system: string;
  /** Its conversation (messages for the next call, and its transcript). */
  readonly conversation: Conversation;
  /** Its tools. */
  readonly tools: AgentTools;
  /** Its span: the parent of its `chat` and `execute_tool` spans. */
  readonly span: OpenSpan;
  /** Its stop rules, asked in order before each model call. */
  readonly rules: readonly StopRule[];
  /** Its model calls so far, as the record counts them. */
  steps(): number;
  /** A model call starts: count it in the record. */
  startCall(): void;
  /** Its place in the sub-agent pool, given back while its own sub-agents run. */
  readonly lease?: Lease | undefined;
  /** Told each reply, before its tool calls run. */
  onReply?(reply: ModelReply): void;
  /** Told when a reply's tool calls are done. */
  onToolsDone?(): void;
}

/** How a loop ended: the rule that stopped it, and the last reply. */
export interface LoopEnd {
  readonly stop: StopRuleName;
  readonly lastReply: ModelReply | undefined;
}

/** The type a failed call's `chat` span ends with. */
function failureType(err: unknown): string {
  if (err instanceof EpisodeStopped) return 'aborted';
  return err instanceof SwarmProviderError ? 'provider' : 'error';
}

/**
 * Run `agent` until one of its stop rules holds.
 *
 * @throws what its model caller threw ({@link SwarmProviderError}, {@link EpisodeStopped}), after
 *   ending the call's span
 */
export async function runAgentLoop(state: EpisodeState, agent: LoopAgent): Promise<LoopEnd> {
  const { telemetry, clock } = state;
  const turn: ModelTurn = { system: agent.system, conversation: agent.conversation, tools: agent.tools, signal: state.signal };
  let lastReply: ModelReply | undefined;
  for (;;) {
    const stop = firstStop(agent.rules, { steps: agent.steps(), lastReply, turn });
    if (stop !== undefined) return { stop, lastReply };
    agent.startCall();
    const chat = telemetry.chat(agent.caller.name, agent.span, clock.now());
    let reply: ModelReply;
    try {
      reply = await agent.caller.call(turn);
    } catch (err) {
      telemetry.end(chat, clock.now(), { type: failureType(err), message: String(err) });
      throw err;
    }
    telemetry.end(chat, clock.now(), undefined, () => replyAttributes(reply));
    agent.conversation.assistant(reply);
    lastReply = reply;
    agent.onReply?.(reply);
    if (reply.toolCalls.length === 0) continue;
    agent.conversation.toolResults(await dispatchCalls(state, reply.toolCalls, agent.tools.box, agent.span, agent.lease));
    agent.onToolsDone?.();
  }
}
