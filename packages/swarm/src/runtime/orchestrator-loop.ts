/**
 * The orchestrator loop: model calls until the orchestrator answers (a reply with no tool call),
 * reaches its cap, or the budget would be passed; each reply's tool calls run through the
 * dispatch (sub-agents among them). One model call is one main step and opens one turn.
 *
 * @module
 */
import type { Score } from '../scoring/score.js';
import { scoreAnswer, unscored } from '../scoring/task-score.js';
import type { SwarmTask } from '../tasks/task.js';
import type { ToolProvider } from '../tools/tool-provider.js';
import { delegationProviders } from './delegation-tools.js';
import { dispatchCalls } from './dispatch.js';
import { SwarmProviderError } from './errors.js';
import { agentToolsOf, type EpisodeState } from './episode-state.js';
import { callModel, modelName, type ModelReply } from './model-call.js';
import { ORCHESTRATOR_SYSTEM_PROMPT, SINGLE_AGENT_SYSTEM_PROMPT } from './prompts.js';
import { replyAttributes } from './reply-attributes.js';
import { runSubAgent } from './subagent-loop.js';
import { buildRecord, type EpisodeResult, type StopReason } from './swarm-record.js';
import { assembleTrajectory, type CallTokens } from './token-trajectory.js';
import { Conversation } from './transcript.js';

/** Run the episode's orchestrator (or the single agent) to its end; the record is built from the live record. */
export async function runOrchestrator(state: EpisodeState, task: SwarmTask, id: string): Promise<EpisodeResult> {
  const startedMs = performance.now();
  const s = state.settings;
  const { telemetry, clock } = state;
  const frame = state.root;
  const system = s.singleAgent ? SINGLE_AGENT_SYSTEM_PROMPT : ORCHESTRATOR_SYSTEM_PROMPT;
  const providers: ToolProvider[] = [
    ...(s.singleAgent ? [] : delegationProviders(state, frame, (a, parent, lease) => runSubAgent(state, frame, a, parent, lease))),
    ...(s.toolsFor === 'subagents' && !s.singleAgent ? [] : state.taskProviders),
  ];
  const tools = agentToolsOf(providers);
  const conversation = new Conversation(system, task.prompt);
  const root = telemetry.agent(s.singleAgent ? 'single_agent' : 'orchestrator', undefined, clock.now(), task.prompt);
  telemetry.episode(root, task.id, id);
  let answer = '';
  let stop: StopReason = 'orchestrator_steps';
  let toolCalls = 0;
  const malformed: string[] = [];
  const texts: string[] = [];
  const callTokens: CallTokens[] = [];
  try {
    while (frame.ownCalls < s.limits.orchestrator_steps) {
      if (!state.fits(frame, 'main')) {
        s.onEvent({ type: 'budget-refused', who: 'orchestrator' });
        state.budgetExhausted = true;
        stop = 'budget';
        break;
      }
      frame.openTurn();
      state.turnSubagents = 0;
      const chat = telemetry.chat(modelName(s.orchestrator), root, clock.now());
      let reply: ModelReply;
      try {
        reply = await callModel({ model: s.orchestrator, system, messages: conversation.messages, tools: tools.set, signal: state.signal, retry: s.retry, tokenDetails: s.tokenDetails });
      } catch (err) {
        telemetry.end(chat, clock.now(), { type: err instanceof SwarmProviderError ? 'provider' : 'error', message: String(err) });
        throw err;
      }
      telemetry.end(chat, clock.now(), undefined, replyAttributes(reply));
      conversation.assistant(reply);
      if (s.tokenTrajectories) callTokens.push({ promptIds: reply.promptTokenIds, completionIds: reply.tokenIds, logprobs: reply.logprobs });
      toolCalls += reply.toolCalls.length;
      for (const c of reply.toolCalls) if (c.invalid !== undefined) malformed.push(c.invalid);
      if (reply.text !== '') texts.push(reply.text);
      if (reply.text !== '') s.onEvent({ type: 'orchestrator-text', step: frame.ownCalls - 1, text: reply.text });
      if (reply.toolCalls.length === 0) {
        s.onEvent({ type: 'stage-closed', stage: frame.ownCalls - 1, subagents: 0 });
        answer = reply.text;
        stop = 'answer';
        break;
      }
      conversation.toolResults(await dispatchCalls(state, reply.toolCalls, tools.box, root));
      s.onEvent({ type: 'stage-closed', stage: frame.ownCalls - 1, subagents: state.turnSubagents });
      if (state.budgetExhausted) {
        stop = 'budget';
        break;
      }
    }
  } catch (err) {
    state.controller.abort();
    telemetry.end(root, clock.now(), { type: err instanceof SwarmProviderError ? 'provider' : 'error', message: String(err) });
    throw err;
  }
  // The final answer is scored once the episode is over: a judge's calls are no steps of it.
  let score: Score;
  try {
    score = stop === 'answer'
      ? await scoreAnswer(task, answer)
      : stop === 'budget' && s.onBudget === 'truncate'
        ? await scoreAnswer(task, [...texts, ...state.finishedAnswers].join('\n'))
        : unscored(task, stop);
  } catch (err) {
    telemetry.end(root, clock.now(), { type: 'score', message: String(err) });
    throw err;
  }
  const record = buildRecord({
    id,
    taskId: task.id,
    live: state.live,
    score,
    metadata: task.metadata,
    stop,
    budgetExhausted: state.budgetExhausted,
    orchestratorToolCalls: toolCalls,
    malformedToolCalls: malformed.length,
    toolErrors: state.executor.toolErrors,
    wallMs: performance.now() - startedMs,
    trainingStep: s.trainingStep,
    reward: s.reward,
    maxSubagents: s.maxSubagents,
  });
  telemetry.end(root, clock.now(), stop === 'answer' ? undefined : { type: stop, message: `the episode stopped: ${stop}` });
  const tokens = s.tokenTrajectories ? { trajectory: assembleTrajectory(callTokens), subagentMessages: state.subagentTranscripts } : {};
  return { record, messages: conversation.transcript, answer, malformed, ...tokens };
}
