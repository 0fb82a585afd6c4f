/**
 * The orchestrator (or the single agent): the one agent loop with the orchestrator's tools
 * (`create_subagent` / `assign_task` and, per `toolsFor`, the task's), its step cap and its place
 * in the budget; one model call is one main step and opens one turn. Then its answer is scored
 * and the record built.
 *
 * @module
 */
import type { Score } from '../scoring/score.js';
import { scoreAnswer, unscored } from '../scoring/task-score.js';
import type { SwarmTask } from '../tasks/task.js';
import type { ToolProvider } from '../tools/tool-provider.js';
import { delegationProviders } from './delegation-tools.js';
import { runAgentLoop, type LoopEnd } from './agent-loop.js';
import { agentToolsOf } from './agent-tools.js';
import { EpisodeStopped, SwarmProviderError } from './errors.js';
import type { EpisodeState } from './episode-state.js';
import { ORCHESTRATOR_SYSTEM_PROMPT, SINGLE_AGENT_SYSTEM_PROMPT } from './prompts.js';
import { agentRules, type StopRuleName } from './stop-rules.js';
import { runSubAgent } from './subagent-loop.js';
import { buildRecord, type EpisodeResult, type StopReason } from './swarm-record.js';
import { assembleTrajectory, type CallTokens } from './token-trajectory.js';
import { Conversation } from './transcript.js';

/** The record's stop reason of the rule that ended the orchestrator's loop (a cancel never makes a record). */
function stopReasonOf(rule: StopRuleName): StopReason {
  switch (rule) {
    case 'answered':
      return 'answer';
    case 'step_cap':
      return 'orchestrator_steps';
    case 'context':
      return 'context';
    default:
      return 'budget';
  }
}

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
  const caller = state.orchestratorCaller;
  let toolCalls = 0;
  const malformed: string[] = [];
  const texts: string[] = [];
  const callTokens: CallTokens[] = [];
  let end: LoopEnd;
  try {
    end = await runAgentLoop(state, {
      caller,
      system,
      conversation,
      tools,
      span: root,
      rules: agentRules({ cancel: state.cancel, episode: state, cap: s.limits.orchestrator_steps, fits: () => state.fits(frame, 'main'), caller }),
      steps: () => frame.ownCalls,
      startCall: () => {
        frame.openTurn();
        state.turnSubagents = 0;
      },
      onReply: (reply) => {
        if (s.tokenTrajectories) callTokens.push({ promptIds: reply.promptTokenIds, completionIds: reply.tokenIds, logprobs: reply.logprobs });
        toolCalls += reply.toolCalls.length;
        for (const c of reply.toolCalls) if (c.invalid !== undefined) malformed.push(c.invalid);
        if (reply.text !== '') texts.push(reply.text);
        if (reply.text !== '') s.onEvent({ type: 'orchestrator-text', step: frame.ownCalls - 1, text: reply.text });
        if (reply.toolCalls.length === 0) s.onEvent({ type: 'stage-closed', stage: frame.ownCalls - 1, subagents: 0 });
      },
      onToolsDone: () => s.onEvent({ type: 'stage-closed', stage: frame.ownCalls - 1, subagents: state.turnSubagents }),
    });
    if (end.stop === 'cancelled') state.throwIfCancelled();
    if (end.stop === 'budget') {
      s.onEvent({ type: 'budget-refused', who: 'orchestrator' });
      state.budgetExhausted = true;
    }
  } catch (err) {
    state.controller.abort();
    state.close();
    telemetry.end(root, clock.now(), { type: err instanceof SwarmProviderError ? 'provider' : 'error', message: String(err) });
    if (err instanceof EpisodeStopped) state.throwIfCancelled();
    throw err;
  }
  const stop = stopReasonOf(end.stop);
  const answer = stop === 'answer' ? (end.lastReply?.text ?? '') : '';
  // The final answer is scored once the episode is over: a judge's calls are no steps of it.
  let score: Score;
  try {
    score = stop === 'answer'
      ? await scoreAnswer(task, answer, state.cancel)
      : stop === 'budget' && s.onBudget === 'truncate'
        ? await scoreAnswer(task, [...texts, ...state.finishedAnswers].join('\n'), state.cancel)
        : unscored(task, stop);
  } catch (err) {
    state.close();
    telemetry.end(root, clock.now(), { type: 'score', message: String(err) });
    throw err;
  }
  state.close();
  // A cancel that came while the answer was scored: no record either (spec §10.6).
  state.throwIfCancelled();
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
  return { record, messages: conversation.transcript, answer, malformed, toolCalls: state.executor.toolCalls, ...tokens };
}
