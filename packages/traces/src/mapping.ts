/**
 * The PARL reading of one trace tree: who the orchestrator is, its main steps, the sub-agents
 * of each turn, their steps and whether they finished. Produces spec §5 stages; computes no
 * PARL quantity.
 *
 * @module
 */
import { asRunWaitSteps, criticalSteps, type StageRecord, type SubAgentEntry } from '@parl/core';
import { effectiveRoles, countedModelCalls } from './roles.js';
import type { ResolvedTraceOptions } from './options.js';
import { spanLabel, type SpanRole, type TraceSpan } from './span.js';
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
  /**
   * Its steps (a count, or seconds with the wall clock); for a sub-agent that launched sub-agents
   * of its own (spec §5.2), its own critical steps as run.
   */
  readonly steps: number;
  /** False when its span ended in error. */
  readonly finished: boolean;
  /** True when it launched sub-agents of its own: its record entry is nested (spec §5.2), its mapping in {@link TraceMapping.nested}. */
  readonly nested: boolean;
  /**
   * Steps of its turn that elapsed before it started, as run (spec §2, §7; `@parl/core`'s
   * `asRunWaitSteps`): the heaviest chain of its turn's sub-agents that ended before it started,
   * 0 when it started with its group.
   */
  readonly wait_steps: number;
}

/** The sub-agents launched in one orchestrator turn, with their waits as run. */
export interface TurnGroup {
  /** The turn: 1 for the orchestrator's first model call, …; 0 for sub-agents launched before it. */
  readonly turn: number;
  /** The main steps of the turn (the model call, or its duration in seconds; 0 for turn 0). */
  readonly main_steps: number;
  /** The turn's sub-agents in start order (its stage's entries, in order); `wait_steps` never decreases along it. */
  readonly subs: readonly SubAgentRef[];
  /**
   * The rounds in which they ran: consecutive sub-agents (in start order) of equal `wait_steps`.
   * One round when they all started with the group; more when some waited for others to end
   * (a pool, or one after another).
   */
  readonly waves: readonly (readonly SubAgentRef[])[];
  /** Tool calls the orchestrator made itself in this turn (tool calls that ran no sub-agent). */
  readonly own_tool_calls: number;
}

/** Captured content of a sub-agent (its own, or that of the tool call that ran it), or of a turn's own tool calls. */
export interface CapturedContent {
  /** What it was asked (prompt, tool arguments). */
  readonly input: string | undefined;
  /** What it answered (answer, tool result). */
  readonly output: string | undefined;
}

/** The mapping of one trace. */
export interface TraceMapping {
  /** The orchestrator's name (its top-level agent span, or the root span when no agent span exists). */
  readonly orchestrator: string;
  /** The turns in order, each with its sub-agents. */
  readonly turns: readonly TurnGroup[];
  /** Warnings about the mapping (no agent span, several top-level agents, sub-agents without model calls…). */
  readonly warnings: readonly string[];
  /** Captured content by sub-agent span id, where the format carries it. */
  readonly contents: ReadonlyMap<string, CapturedContent>;
  /** Captured content of each turn's own tool calls (joined), by turn number, where the format carries it. */
  readonly ownToolContents: ReadonlyMap<number, CapturedContent>;
  /** The mapping of each sub-agent that launched sub-agents of its own (spec §5.2), by its span id: the same reading one level down. */
  readonly nested: ReadonlyMap<string, TraceMapping>;
}

/** Sub-agents nested deeper than this (spec §5.2's limit) are counted as plain entries, with a warning. */
const MAX_MAPPED_DEPTH = 16;

/**
 * Spans by start time; spans that started in the same millisecond by end time, then by span id,
 * so that a record never depends on the order in which an exporter happened to send its spans.
 */
function byStart(a: TraceSpan, b: TraceSpan): number {
  return a.startMs - b.startMs || a.endMs - b.endMs || (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0);
}

/** The turn (1-based; 0 before the first call) of something that started at `startMs`. */
function turnOf(mainCalls: readonly TraceSpan[], startMs: number): number {
  let lo = 0;
  let hi = mainCalls.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((mainCalls[mid] as TraceSpan).startMs <= startMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function joinContent(parts: readonly (string | undefined)[]): string | undefined {
  const known = parts.filter((p): p is string => p !== undefined);
  return known.length === 0 ? undefined : known.join('\n');
}

/**
 * Map one checked trace tree onto orchestrator turns and their sub-agents, with each one's wait as run.
 *
 * - The orchestrator is the top-level agent (an agent span with no agent above it); several
 *   top-level agents (e.g. OpenAI Agents handoffs) act as one orchestrator. Without any agent span
 *   the root spans stand for it.
 * - Its model calls (those not inside a sub-agent; a call nested in another call of the same
 *   agent counts once) are the main steps, one turn each, in start order.
 * - Its sub-agents are the agent spans whose nearest agent ancestor is the orchestrator; each is
 *   put in the turn of the last orchestrator model call that started at or before it (turn 0 when
 *   none did).
 * - A sub-agent's steps are the model calls (`stepsFrom: 'llm'`) or tool calls (`'tools'`) in its
 *   whole subtree; with `clock: 'wall'` each counts its duration in seconds. It finished when its
 *   span did not end in error.
 */
export function mapTrace(tree: TraceTree, options: Pick<ResolvedTraceOptions, 'stepsFrom' | 'clock'>): TraceMapping {
  const roles = effectiveRoles(tree);
  const context: MappingContext = { tree, roles, counted: countedModelCalls(tree, roles), options, anyAgent: tree.spans.some((s) => roles.get(s.spanId) === 'agent') };
  return mapScope(context, undefined, 0);
}

/** What every level of one trace's mapping shares. */
interface MappingContext {
  readonly tree: TraceTree;
  readonly roles: ReadonlyMap<string, SpanRole>;
  readonly counted: ReadonlySet<string>;
  readonly options: Pick<ResolvedTraceOptions, 'stepsFrom' | 'clock'>;
  readonly anyAgent: boolean;
}

/** What one agent's part of the tree holds: its own model and tool calls, and the agents it launched directly. */
interface AgentScope {
  readonly orchestrators: TraceSpan[];
  readonly subAgents: TraceSpan[];
  readonly mainCalls: TraceSpan[];
  readonly ownTools: TraceSpan[];
  readonly toolAbove: Map<string, TraceSpan>;
  readonly delegating: Set<string>;
}

/**
 * Walk one agent's part of the tree top-down, carrying the nearest agent ancestor: from the roots
 * (`agent` undefined: the orchestrator level) or from a sub-agent's children. Agents below the
 * agents found are left to their own scope.
 */
function scopeOf(context: MappingContext, agent: TraceSpan | undefined): AgentScope {
  const { tree, roles, counted, anyAgent } = context;
  const scope: AgentScope = { orchestrators: [], subAgents: [], mainCalls: [], ownTools: [], toolAbove: new Map(), delegating: new Set() };
  // 'none': no agent above yet (top level); 'main': inside the agent being mapped.
  type Owner = 'none' | 'main';
  type Frame = { span: TraceSpan; owner: Owner; tool: TraceSpan | undefined };
  const starts = agent === undefined ? tree.roots : (tree.children.get(agent.spanId) ?? []);
  const first: Owner = agent === undefined ? 'none' : 'main';
  const stack: Frame[] = starts.map((span) => ({ span, owner: first, tool: undefined })).reverse();
  while (stack.length > 0) {
    const { span, owner, tool } = stack.pop() as Frame;
    const role = roles.get(span.spanId);
    let childOwner: Owner = owner;
    let childTool = tool;
    if (role === 'agent') {
      if (owner === 'none') {
        scope.orchestrators.push(span);
        childOwner = 'main';
        childTool = undefined;
      } else {
        scope.subAgents.push(span);
        if (tool !== undefined) {
          scope.toolAbove.set(span.spanId, tool);
          scope.delegating.add(tool.spanId);
        }
        continue;
      }
    } else if (role === 'llm' && counted.has(span.spanId) && (owner === 'main' || (owner === 'none' && !anyAgent))) {
      scope.mainCalls.push(span);
    } else if (role === 'tool' && owner === 'main') {
      scope.ownTools.push(span);
      childTool = span;
    }
    const kids = tree.children.get(span.spanId) ?? [];
    // Reverse push so that spans are visited in arrival order: ties in start time keep that order.
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ span: kids[k] as TraceSpan, owner: childOwner, tool: childTool });
  }
  return scope;
}

/** The mapping of the orchestrator (`agent` undefined) or of a sub-agent that launched sub-agents, `depth` levels down. */
function mapScope(context: MappingContext, agent: TraceSpan | undefined, depth: number): TraceMapping {
  const { tree, roles, counted, options, anyAgent } = context;
  const warnings: string[] = [];
  const { orchestrators, subAgents, mainCalls, ownTools, toolAbove, delegating } = scopeOf(context, agent);
  let orchestrator: string;
  if (agent === undefined) {
    if (!anyAgent) {
      warnings.push(`trace ${tree.traceId} has no agent span: the root span stands for the orchestrator and there are no sub-agents`);
    } else if (orchestrators.length > 1) {
      warnings.push(
        `trace ${tree.traceId} has ${orchestrators.length} top-level agents (${orchestrators.map((s) => JSON.stringify(s.name)).join(', ')}): read as one orchestrator (handoffs)`,
      );
    }
    const named = anyAgent ? orchestrators : [...tree.roots];
    orchestrator = [...new Set(named.sort(byStart).map((s) => s.name))].join(' + ');
    if (mainCalls.length === 0 && subAgents.length > 0) {
      warnings.push(`trace ${tree.traceId}: the orchestrator ${JSON.stringify(orchestrator)} has sub-agents but no recognised model call, so it has no main steps`);
    }
  } else {
    orchestrator = agent.name;
    if (mainCalls.length === 0) {
      warnings.push(`trace ${tree.traceId}: sub-agent ${spanLabel(agent)} launched sub-agents but has no recognised model call of its own, so its nested entry has no main steps`);
    }
  }

  const stepRole: SpanRole = options.stepsFrom === 'llm' ? 'llm' : 'tool';
  const isStep = (span: TraceSpan): boolean => roles.get(span.spanId) === stepRole && (stepRole !== 'llm' || counted.has(span.spanId));
  const weight = (span: TraceSpan): number => (options.clock === 'wall' ? (span.endMs - span.startMs) / 1000 : 1);
  const stepsOf = (sub: TraceSpan): { steps: number; calls: number } => {
    let steps = 0;
    let calls = 0;
    const todo = [...(tree.children.get(sub.spanId) ?? [])];
    while (todo.length > 0) {
      const span = todo.pop() as TraceSpan;
      if (isStep(span)) steps += weight(span);
      if (roles.get(span.spanId) === 'llm' && counted.has(span.spanId)) calls++;
      for (const child of tree.children.get(span.spanId) ?? []) todo.push(child);
    }
    return { steps, calls };
  };

  mainCalls.sort(byStart);
  subAgents.sort(byStart);
  const perTurn: Omit<SubAgentRef, 'wait_steps'>[][] = Array.from({ length: mainCalls.length + 1 }, () => []);
  const contents = new Map<string, CapturedContent>();
  const nested = new Map<string, TraceMapping>();
  for (const sub of subAgents) {
    // A sub-agent that launched agents of its own is a nested entry (spec §5.2), within the depth the spec allows.
    const launches = depth + 1 < MAX_MAPPED_DEPTH && scopeOf(context, sub).subAgents.length > 0;
    let steps: number;
    if (launches) {
      const inner = mapScope(context, sub, depth + 1);
      nested.set(sub.spanId, inner);
      warnings.push(...inner.warnings);
      steps = criticalSteps(stagesOf(inner, 'overlap')).critical_steps;
    } else {
      const counts = stepsOf(sub);
      steps = counts.steps;
      if (depth + 1 >= MAX_MAPPED_DEPTH && scopeOf(context, sub).subAgents.length > 0) {
        warnings.push(`trace ${tree.traceId}: sub-agent ${spanLabel(sub)} is nested deeper than ${MAX_MAPPED_DEPTH} levels: its subtree counts as one sub-agent's steps`);
      }
      if (counts.calls === 0) {
        warnings.push(
          `trace ${tree.traceId}: sub-agent ${spanLabel(sub)} has no recognised model call${options.stepsFrom === 'llm' ? ', so it counts 0 steps' : ''} (is its model instrumented?)`,
        );
      }
    }
    const via = toolAbove.get(sub.spanId);
    (perTurn[turnOf(mainCalls, sub.startMs)] as Omit<SubAgentRef, 'wait_steps'>[]).push({
      span_id: sub.spanId,
      name: sub.name,
      start_ms: sub.startMs,
      // Run as a tool, a sub-agent is over for the caller when its tool call returns: some
      // frameworks (Strands) end the agent span a moment after the tool span that holds it.
      end_ms: via !== undefined && via.endMs >= sub.startMs ? Math.min(sub.endMs, via.endMs) : sub.endMs,
      steps,
      finished: !sub.error,
      nested: launches,
    });
    const input = sub.input ?? via?.input;
    const output = sub.output ?? via?.output;
    if (input !== undefined || output !== undefined) contents.set(sub.spanId, { input, output });
  }
  const ownPerTurn = new Map<number, TraceSpan[]>();
  for (const tool of ownTools) {
    if (delegating.has(tool.spanId)) continue;
    const t = turnOf(mainCalls, tool.startMs);
    let list = ownPerTurn.get(t);
    if (list === undefined) ownPerTurn.set(t, (list = []));
    list.push(tool);
  }
  const ownToolContents = new Map<number, CapturedContent>();
  for (const [t, tools] of ownPerTurn) {
    const input = joinContent(tools.map((s) => s.input));
    const output = joinContent(tools.map((s) => s.output));
    if (input !== undefined || output !== undefined) ownToolContents.set(t, { input, output });
  }
  const turns: TurnGroup[] = [];
  perTurn.forEach((subs, t) => {
    if (t === 0 && subs.length === 0) return;
    const mainSpan = t === 0 ? undefined : mainCalls[t - 1];
    const timed = withWaits(subs);
    turns.push({ turn: t, main_steps: mainSpan === undefined ? 0 : weight(mainSpan), subs: timed, waves: roundsOf(timed), own_tool_calls: ownPerTurn.get(t)?.length ?? 0 });
  });
  return { orchestrator, turns, warnings, contents, ownToolContents, nested };
}

/** The turn's sub-agents with their `wait_steps` as run, by `@parl/core`'s grouping rule (spec §7). */
function withWaits(subs: readonly Omit<SubAgentRef, 'wait_steps'>[]): SubAgentRef[] {
  const waits = asRunWaitSteps(subs.map((s) => ({ start: s.start_ms, end: s.end_ms, steps: s.steps })));
  return subs.map((s, i) => ({ ...s, wait_steps: waits[i] as number }));
}

/** Sub-agents in start order, split where `wait_steps` changes: the rounds in which they ran. */
function roundsOf(subs: readonly SubAgentRef[]): SubAgentRef[][] {
  const rounds: SubAgentRef[][] = [];
  for (const sub of subs) {
    const last = rounds[rounds.length - 1];
    if (last !== undefined && (last[0] as SubAgentRef).wait_steps === sub.wait_steps) last.push(sub);
    else rounds.push([sub]);
  }
  return rounds;
}

/** A sub-agent's record entry: `{steps, finished}`, or `{stages, finished}` when it launched sub-agents (spec §5.2). */
function entry(sub: SubAgentRef, mapping: Pick<TraceMapping, 'nested'>, nestedStages: (inner: TraceMapping) => StageRecord[], waited: boolean): SubAgentEntry {
  const inner = sub.nested ? mapping.nested.get(sub.span_id) : undefined;
  const wait = waited && sub.wait_steps > 0 ? { wait_steps: sub.wait_steps } : {};
  if (inner !== undefined) return { stages: nestedStages(inner), finished: sub.finished, ...wait };
  return { steps: sub.steps, finished: sub.finished, ...wait };
}

/**
 * Spec §5 stages of a mapping: one stage per orchestrator turn, its group the sub-agents launched
 * in that turn, in start order.
 *
 * - `overlap` (as run, the default): a sub-agent that started after some of its turn's sub-agents
 *   had ended carries `wait_steps` (spec §2, §7: the heaviest chain of those, by `@parl/core`'s
 *   `asRunWaitSteps`), so the record's critical steps are what happened, pools included.
 * - `children` (launched together): no waits, as if the turn's sub-agents had all started at once.
 *
 * A sub-agent that launched sub-agents is a nested entry (spec §5.2) whose stages follow the same
 * grouping, or those `nestedStages` gives (the finding's launched-together rewrites).
 */
export function stagesOf(
  mapping: Pick<TraceMapping, 'turns' | 'nested'>,
  grouping: 'children' | 'overlap',
  nestedStages: (inner: TraceMapping) => StageRecord[] = (inner) => stagesOf(inner, grouping),
): StageRecord[] {
  const waited = grouping === 'overlap';
  return mapping.turns.map((turn) => ({ main_steps: turn.main_steps, sub_steps: turn.subs.map((sub) => entry(sub, mapping, nestedStages, waited)) }));
}
