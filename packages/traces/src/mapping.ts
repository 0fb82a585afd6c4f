/**
 * The PARL reading of one trace tree: who the orchestrator is, its main steps, the sub-agents
 * of each turn, their steps and whether they finished. Produces spec §5 stages; computes no
 * PARL quantity.
 *
 * @module
 */
import type { StageRecord, SubAgentRun } from '@parl/core';
import type { ResolvedTraceOptions } from './options.js';
import type { SpanRole, TraceSpan } from './span.js';
import type { TraceTree } from './trace-tree.js';

/** One sub-agent as the mapping saw it. */
export interface SubAgentRef {
  /** Its span (or run) id. */
  readonly span_id: string;
  /** Its agent name. */
  readonly name: string;
  /** Start, ms since the Unix epoch. */
  readonly start_ms: number;
  /** End, ms since the Unix epoch. */
  readonly end_ms: number;
  /** Its steps (a count, or seconds with the wall clock). */
  readonly steps: number;
  /** False when its span ended in error. */
  readonly finished: boolean;
}

/** The sub-agents launched in one orchestrator turn, split into waves that overlap in time. */
export interface TurnGroup {
  /** The turn: 1 for the orchestrator's first LLM call, …; 0 for sub-agents launched before it. */
  readonly turn: number;
  /** The main steps of the turn (the LLM call, or its duration in seconds; 0 for turn 0). */
  readonly main_steps: number;
  /** Waves in start order: sub-agents in one wave overlap in time (transitively), waves do not. */
  readonly waves: readonly (readonly SubAgentRef[])[];
}

/** The mapping of one trace. */
export interface TraceMapping {
  /** The orchestrator's name (its top-level agent span, or the root span when no agent span exists). */
  readonly orchestrator: string;
  /** The turns in order, each with its sub-agents. */
  readonly turns: readonly TurnGroup[];
  /** Warnings about the mapping (no agent span, several top-level agents…). */
  readonly warnings: readonly string[];
}

function effectiveRoles(tree: TraceTree): Map<string, SpanRole> {
  const roles = new Map<string, SpanRole>();
  for (const span of tree.spans) roles.set(span.spanId, span.role);
  // LangSmith has no agent run type: the root run is the orchestrator, and a chain launched by a
  // tool run is an agent used as a tool (a sub-agent).
  for (const span of tree.spans) {
    if (span.format !== 'langsmith' || span.role !== 'other' || span.rawKind !== 'chain') continue;
    const parent = span.parentId === undefined ? undefined : tree.byId.get(span.parentId);
    if (parent === undefined || parent.role === 'tool') roles.set(span.spanId, 'agent');
  }
  return roles;
}

function byStart(a: TraceSpan, b: TraceSpan): number {
  return a.startMs - b.startMs;
}

/**
 * Map one checked trace tree onto orchestrator turns and sub-agent waves.
 *
 * - The orchestrator is the top-level agent (an agent span with no agent above it); several
 *   top-level agents (e.g. OpenAI Agents handoffs) act as one orchestrator. Without any agent span
 *   the root spans stand for it.
 * - Its LLM calls (those not inside a sub-agent) are the main steps, one turn each, in start order.
 * - Its sub-agents are the agent spans whose nearest agent ancestor is the orchestrator; each is
 *   put in the turn of the last orchestrator LLM call that started at or before it (turn 0 when
 *   none did).
 * - A sub-agent's steps are the LLM calls (`stepsFrom: 'llm'`) or tool calls (`'tools'`) in its
 *   whole subtree; with `clock: 'wall'` each counts its duration in seconds. It finished when its
 *   span did not end in error.
 */
export function mapTrace(tree: TraceTree, options: Pick<ResolvedTraceOptions, 'stepsFrom' | 'clock'>): TraceMapping {
  const warnings: string[] = [];
  const roles = effectiveRoles(tree);
  const orchestrators: TraceSpan[] = [];
  const subAgents: TraceSpan[] = [];
  const mainCalls: TraceSpan[] = [];
  const anyAgent = tree.spans.some((s) => roles.get(s.spanId) === 'agent');

  // Walk top-down carrying the nearest agent ancestor: null = none, 'main' = an orchestrator.
  type Owner = 'none' | 'main' | TraceSpan;
  const stack: { span: TraceSpan; owner: Owner }[] = tree.roots.map((span) => ({ span, owner: 'none' as Owner })).reverse();
  while (stack.length > 0) {
    const { span, owner } = stack.pop() as { span: TraceSpan; owner: Owner };
    const role = roles.get(span.spanId);
    let childOwner: Owner = owner;
    if (role === 'agent') {
      if (owner === 'none') {
        orchestrators.push(span);
        childOwner = 'main';
      } else {
        if (owner === 'main') subAgents.push(span);
        childOwner = span;
      }
    } else if (role === 'llm' && (owner === 'main' || (owner === 'none' && !anyAgent))) {
      mainCalls.push(span);
    }
    const kids = tree.children.get(span.spanId) ?? [];
    // Reverse push so that spans are visited in arrival order: ties in start time keep that order.
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ span: kids[k] as TraceSpan, owner: childOwner });
  }
  if (!anyAgent) {
    warnings.push(`trace ${tree.traceId} has no agent span: the root span stands for the orchestrator and there are no sub-agents`);
  } else if (orchestrators.length > 1) {
    warnings.push(
      `trace ${tree.traceId} has ${orchestrators.length} top-level agents (${orchestrators.map((s) => JSON.stringify(s.name)).join(', ')}): read as one orchestrator (handoffs)`,
    );
  }
  const named = anyAgent ? orchestrators : [...tree.roots];
  const orchestrator = [...new Set(named.sort(byStart).map((s) => s.name))].join(' + ');

  const stepRole: SpanRole = options.stepsFrom === 'llm' ? 'llm' : 'tool';
  const weight = (span: TraceSpan): number => (options.clock === 'wall' ? (span.endMs - span.startMs) / 1000 : 1);
  const stepsOf = (agent: TraceSpan): number => {
    let steps = 0;
    const todo = [...(tree.children.get(agent.spanId) ?? [])];
    while (todo.length > 0) {
      const span = todo.pop() as TraceSpan;
      if (roles.get(span.spanId) === stepRole) steps += weight(span);
      for (const child of tree.children.get(span.spanId) ?? []) todo.push(child);
    }
    return steps;
  };

  mainCalls.sort(byStart);
  subAgents.sort(byStart);
  const perTurn: SubAgentRef[][] = Array.from({ length: mainCalls.length + 1 }, () => []);
  let call = 0;
  for (const sub of subAgents) {
    while (call < mainCalls.length && (mainCalls[call] as TraceSpan).startMs <= sub.startMs) call++;
    (perTurn[call] as SubAgentRef[]).push({
      span_id: sub.spanId,
      name: sub.name,
      start_ms: sub.startMs,
      end_ms: sub.endMs,
      steps: stepsOf(sub),
      finished: !sub.error,
    });
  }
  const turns: TurnGroup[] = [];
  perTurn.forEach((subs, t) => {
    if (t === 0 && subs.length === 0) return;
    const mainSpan = t === 0 ? undefined : mainCalls[t - 1];
    turns.push({ turn: t, main_steps: mainSpan === undefined ? 0 : weight(mainSpan), waves: wavesOf(subs) });
  });
  return { orchestrator, turns, warnings };
}

/** Split sub-agents (in start order) into waves: a new wave starts when one starts at or after every earlier one ended. */
function wavesOf(subs: readonly SubAgentRef[]): SubAgentRef[][] {
  const waves: SubAgentRef[][] = [];
  let current: SubAgentRef[] = [];
  let end = -Infinity;
  for (const sub of subs) {
    if (current.length > 0 && sub.start_ms >= end) {
      waves.push(current);
      current = [];
      end = -Infinity;
    }
    current.push(sub);
    end = Math.max(end, sub.end_ms);
  }
  if (current.length > 0) waves.push(current);
  return waves;
}

function entry(sub: SubAgentRef): SubAgentRun {
  return { steps: sub.steps, finished: sub.finished };
}

/**
 * Spec §5 stages of a mapping.
 *
 * - `children`: one stage per turn, its group all the sub-agents launched in that turn.
 * - `overlap`: one stage per wave; the first wave of a turn carries the turn's main steps, later
 *   waves 0 (they ran after the earlier ones although no orchestrator step came between).
 */
export function stagesOf(mapping: TraceMapping, grouping: 'children' | 'overlap'): StageRecord[] {
  const stages: StageRecord[] = [];
  for (const turn of mapping.turns) {
    if (grouping === 'children' || turn.waves.length <= 1) {
      stages.push({ main_steps: turn.main_steps, sub_steps: turn.waves.flat().map(entry) });
      continue;
    }
    turn.waves.forEach((wave, w) => {
      stages.push({ main_steps: w === 0 ? turn.main_steps : 0, sub_steps: wave.map(entry) });
    });
  }
  return stages;
}
