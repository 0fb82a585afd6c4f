/**
 * The agent loop's stop rules, each a named predicate over what the loop has seen (as the AI
 * SDK's `stepCountIs` / `hasToolCall`): the loop asks them in order before each model call and
 * stops at the first that holds. The orchestrator and a sub-agent ask the same rules, with their
 * own step cap and their own place in the budget.
 *
 * @module
 */
import type { ModelCaller, ModelReply, ModelTurn } from './model-caller.js';

/** What the rules read: the agent's model calls so far, its last reply, and its next turn. */
export interface LoopView {
  /** Model calls the agent made so far (as its record counts them). */
  readonly steps: number;
  /** Its last reply (none before the first call). */
  readonly lastReply: ModelReply | undefined;
  /** What its next call would be made from. */
  readonly turn: ModelTurn;
}

/** Why a loop stopped: the name of the rule that held. */
export type StopRuleName = 'answered' | 'cancelled' | 'budget_spent' | 'step_cap' | 'budget' | 'context';

/** One stop rule: its name, and whether it holds now. */
export interface StopRule {
  readonly name: StopRuleName;
  holds(view: LoopView): boolean;
}

/** The agent answered: its last reply made no tool call. */
export const answered: StopRule = {
  name: 'answered',
  holds: (view) => view.lastReply !== undefined && view.lastReply.toolCalls.length === 0,
};

/** The episode was cancelled (Ctrl-C, `SIGTERM`, an abort signal passed in code; spec §10.6). */
export function cancelled(signal: AbortSignal): StopRule {
  return { name: 'cancelled', holds: () => signal.aborted };
}

/** Another agent's call already found the critical-step budget spent. */
export function budgetSpent(episode: { readonly budgetExhausted: boolean }): StopRule {
  return { name: 'budget_spent', holds: () => episode.budgetExhausted };
}

/** The agent made `cap` model calls (its limit of spec §10). */
export function stepCap(cap: number): StopRule {
  return { name: 'step_cap', holds: (view) => view.steps >= cap };
}

/** One more call would take the whole record's critical steps past the budget (`fits` says whether it keeps within). */
export function budget(fits: () => boolean): StopRule {
  return { name: 'budget', holds: () => !fits() };
}

/** The next prompt would not fit the model's context (a caller that knows its prompt's length, spec §10.5). */
export function contextFull(caller: ModelCaller): StopRule {
  return { name: 'context', holds: (view) => caller.fits !== undefined && !caller.fits(view.turn) };
}

/** What an agent's rules are made of. */
export interface AgentRuleInputs {
  /** The episode's cancel signal. */
  readonly cancel: AbortSignal;
  /** The episode (whether its budget is spent). */
  readonly episode: { readonly budgetExhausted: boolean };
  /** The agent's step cap. */
  readonly cap: number;
  /** Whether one more call keeps the record within the budget. */
  readonly fits: () => boolean;
  /** The agent's model caller. */
  readonly caller: ModelCaller;
}

/** The rules every agent stops by, in the order they are asked: answered, cancelled, budget spent, step cap, budget, context. */
export function agentRules(inputs: AgentRuleInputs): readonly StopRule[] {
  const rules = [answered, cancelled(inputs.cancel), budgetSpent(inputs.episode), stepCap(inputs.cap), budget(inputs.fits)];
  return inputs.caller.fits === undefined ? rules : [...rules, contextFull(inputs.caller)];
}

/** The first of `rules` that holds, if any. */
export function firstStop(rules: readonly StopRule[], view: LoopView): StopRuleName | undefined {
  for (const rule of rules) if (rule.holds(view)) return rule.name;
  return undefined;
}
