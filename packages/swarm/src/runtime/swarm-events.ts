/**
 * What happens in an episode, as it happens: typed events for apps that show a swarm at work
 * (`SwarmAgent.stream()`), told through the episode setting `onEvent`.
 *
 * @module
 */

/** One event of an episode. */
export type SwarmEvent =
  /** The orchestrator's text of one model call (its answer, on the last). */
  | { readonly type: 'orchestrator-text'; readonly step: number; readonly text: string }
  /** `create_subagent` defined a sub-agent. */
  | { readonly type: 'subagent-created'; readonly name: string; readonly systemPrompt: string }
  /** A sub-agent started on an `assign_task` (after any wait for a free place). */
  | { readonly type: 'subagent-started'; readonly name: string; readonly callId: string; readonly prompt: string }
  /** A sub-agent run ended: its model calls (steps), whether it finished, its final message or why not. */
  | { readonly type: 'subagent-finished'; readonly name: string; readonly callId: string; readonly steps: number; readonly finished: boolean; readonly text: string }
  /** An orchestrator turn ended with its tool calls done (its stage of the record is closed). */
  | { readonly type: 'stage-closed'; readonly stage: number; readonly subagents: number }
  /** A model call was not made: it could have taken the running critical steps past the budget. */
  | { readonly type: 'budget-refused'; readonly who: 'orchestrator' | 'subagent' | 'new-subagent'; readonly agent?: string };

/** Told each event of an episode, in order. */
export type SwarmEventListener = (event: SwarmEvent) => void;
