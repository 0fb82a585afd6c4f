/**
 * The serial-collapse finding of one trace (spec §7): the patterns in which work that could have
 * run in parallel ran one piece after another, and the critical steps as run and if parallel.
 *
 * @module
 */
import { criticalSteps, type StageRecord, type SubAgentEntry } from '@parl/core';
import { independenceOf, type Independence } from './independence.js';
import { stagesOf, type SubAgentRef, type TraceMapping, type TurnGroup } from './mapping.js';

/** The kinds of serial pattern (spec §7). */
export const SERIAL_PATTERN_KINDS = ['waves', 'one_per_turn'] as const;
/** A serial pattern kind. */
export type SerialPatternKind = (typeof SERIAL_PATTERN_KINDS)[number];

/**
 * One serial pattern of a trace:
 * - `waves`: some sub-agents of one orchestrator turn ran only after others of the turn had ended
 *   (they carry `wait_steps`, spec §2 — one after another, or a pool with fewer slots than
 *   sub-agents) although no orchestrator step came between them;
 * - `one_per_turn`: consecutive orchestrator turns each launched one sub-agent or did the work
 *   itself (a tool call, no sub-agent) — the report's serial collapse.
 */
export interface SerialPattern {
  /** Which pattern. */
  readonly kind: SerialPatternKind;
  /**
   * Where it happened: empty for the orchestrator's own turns; for a pattern inside a sub-agent that
   * launched sub-agents (a nested entry, spec §5.2), the nested entries down to it, outermost first.
   */
  readonly within: readonly NestedEntryRef[];
  /** The turns involved (1 = the first model call of the agent it happened in; 0 = before it). */
  readonly turns: readonly number[];
  /** The indices (0-based) of the stages involved, in the as-run stages of the agent it happened in (`waves`: the turn's one stage). */
  readonly stages: readonly number[];
  /**
   * The sub-agents involved, in the order they ran, grouped by the rounds in which they ran
   * (`waves`: equal `wait_steps`; flattened, the stage's entries in order) or by turn
   * (`one_per_turn`; a turn that did the work itself has an empty group).
   */
  readonly groups: readonly (readonly SubAgentRef[])[];
  /** From captured content: did a later piece's input quote an earlier one's output? */
  readonly independence: Independence;
  /** Critical steps this pattern alone would save if its work had been launched together, by `@parl/core`. */
  readonly critical_steps_saved: number;
}

/** A nested sub-agent entry (spec §5.2) on the way to a pattern: which entry of which as-run stage it is. */
export interface NestedEntryRef {
  /** The sub-agent's span (or run) id. */
  readonly span_id: string;
  /** Its agent name. */
  readonly name: string;
  /** The index of its stage in the as-run stages of the agent above it. */
  readonly stage: number;
  /** Its index in that stage's `sub_steps`. */
  readonly entry: number;
}

/** Serial collapse observed in one trace (JSON field names in the spec's style). */
export interface SerialCollapseFinding {
  /** The trace (or record id) the finding is about. */
  readonly trace_id: string;
  /** True when the trace has a serial pattern that captured content does not show to be dependent. */
  readonly serial_collapse: boolean;
  /** The serial patterns, in turn order. */
  readonly patterns: readonly SerialPattern[];
  /** Critical steps of the trace as it ran (the default record), by `@parl/core`. */
  readonly critical_steps_as_run: number;
  /**
   * Critical steps had the work of every pattern not shown dependent been launched together, by
   * `@parl/core`. An upper bound on the saving when independence is `unknown`.
   */
  readonly critical_steps_if_parallel: number;
  /** critical_steps_as_run − critical_steps_if_parallel (≥ 0). */
  readonly critical_steps_saved: number;
  /**
   * Present when the format does not record model calls one by one and the steps were derived
   * from what it does record: how (VoltAgent: one response per wave of tool calls, plus the final
   * answer). Absent when every step is a recorded model call.
   */
  readonly steps_derived?: string;
}

/** A turn that launched exactly one sub-agent, or none but called a tool itself. */
function oneAtATime(turn: TurnGroup): boolean {
  const subs = turn.subs.length;
  return turn.turn > 0 && (subs === 1 || (subs === 0 && turn.own_tool_calls > 0));
}

interface Located {
  readonly pattern: Omit<SerialPattern, 'critical_steps_saved'>;
  /** Rewrites the as-run stages into the launched-together ones for this pattern. */
  readonly apply: (stages: StageRecord[]) => void;
}

function locate(mapping: TraceMapping, within: readonly NestedEntryRef[]): Located[] {
  // As run, turn k is stage k (stagesOf: one stage per turn).
  const found: Located[] = [];
  const turns = mapping.turns;
  const contentOf = (sub: SubAgentRef) => mapping.contents.get(sub.span_id);
  for (let k = 0; k < turns.length; k++) {
    const turn = turns[k] as TurnGroup;
    if (turn.waves.length <= 1) continue;
    found.push({
      pattern: { kind: 'waves', within, turns: [turn.turn], stages: [k], groups: turn.waves, independence: independenceOf(turn.subs.map(contentOf)) },
      apply: (s) => {
        // Launched together: the same group, nobody waiting.
        const stage = s[k];
        if (stage !== undefined) s[k] = { main_steps: stage.main_steps, sub_steps: (stage.sub_steps ?? []).map(withoutWait) };
      },
    });
  }
  let k = 0;
  while (k < turns.length) {
    let end = k;
    while (end < turns.length && oneAtATime(turns[end] as TurnGroup) && (end === k || (turns[end] as TurnGroup).turn === (turns[end - 1] as TurnGroup).turn + 1)) end++;
    const run = turns.slice(k, end);
    const launches = run.filter((t) => t.subs.length > 0).length;
    if (run.length >= 2 && launches >= 1) {
      const stages = run.map((_, i) => k + i);
      const units = run.map((t) => (t.subs.length > 0 ? contentOf(t.subs[0] as SubAgentRef) : mapping.ownToolContents.get(t.turn)));
      found.push({
        pattern: { kind: 'one_per_turn', within, turns: run.map((t) => t.turn), stages, groups: run.map((t) => t.subs), independence: independenceOf(units) },
        apply: (s) => {
          // Launched together from the first turn: one group; a turn that did the work itself becomes a sub-agent of its main steps.
          const group = run.flatMap((t, i) => (t.subs.length > 0 ? (s[stages[i] as number]?.sub_steps ?? []) : [t.main_steps]));
          s[stages[0] as number] = { main_steps: run[0]?.main_steps ?? 0, sub_steps: group };
          for (const i of stages.slice(1)) s[i] = { main_steps: 0, sub_steps: [] };
        },
      });
    }
    k = Math.max(end, k + 1);
  }
  return found.sort((a, b) => (a.pattern.stages[0] ?? 0) - (b.pattern.stages[0] ?? 0));
}

/** The patterns of a mapping and of every nested sub-agent's mapping below it (spec §5.2), each by the mapping it rewrites. */
function locateAll(mapping: TraceMapping, within: readonly NestedEntryRef[], out: Map<TraceMapping, Located[]>): void {
  out.set(mapping, locate(mapping, within));
  mapping.turns.forEach((turn, k) => {
    // Where stagesOf(…, 'overlap') puts each sub-agent: turn k's stage, in start order.
    turn.subs.forEach((sub, entry) => {
      const inner = sub.nested ? mapping.nested.get(sub.span_id) : undefined;
      if (inner !== undefined) locateAll(inner, [...within, { span_id: sub.span_id, name: sub.name, stage: k, entry }], out);
    });
  });
}

/** A sub-agent entry launched with its group: its `wait_steps` dropped. */
function withoutWait(entry: SubAgentEntry): SubAgentEntry {
  if (typeof entry === 'number' || entry.wait_steps === undefined) return entry;
  const { wait_steps: _wait, ...rest } = entry;
  return rest as SubAgentEntry;
}

/** The as-run stages of `mapping`, nested entries included, with the `chosen` patterns (at any depth) launched together. */
function stagesWith(mapping: TraceMapping, located: ReadonlyMap<TraceMapping, Located[]>, chosen: (l: Located) => boolean): StageRecord[] {
  const stages = stagesOf(mapping, 'overlap', (inner) => stagesWith(inner, located, chosen));
  for (const l of located.get(mapping) ?? []) if (chosen(l)) l.apply(stages);
  return stages;
}

/**
 * The serial-collapse finding of a mapped trace. Critical steps come from `@parl/core`'s
 * `criticalSteps`: as run (`overlap` stages, the default record) and with the work of every
 * pattern not shown `dependent` launched together. Patterns inside nested sub-agents (spec §5.2)
 * count too: launching a nested agent's sub-agents together shortens its own critical steps, and
 * so its stage's.
 */
export function serialCollapseFinding(traceId: string, mapping: TraceMapping): SerialCollapseFinding {
  const located = new Map<TraceMapping, Located[]>();
  locateAll(mapping, [], located);
  const asRun = criticalSteps(stagesWith(mapping, located, () => false)).critical_steps;
  const all = [...located.values()].flat();
  const patterns = all.map((l) => ({
    ...l.pattern,
    critical_steps_saved: Math.max(0, asRun - criticalSteps(stagesWith(mapping, located, (x) => x === l)).critical_steps),
  }));
  const parallel = stagesWith(mapping, located, (l) => l.pattern.independence !== 'dependent');
  const ifParallel = Math.min(asRun, criticalSteps(parallel).critical_steps);
  return {
    trace_id: traceId,
    serial_collapse: patterns.some((p) => p.independence !== 'dependent'),
    patterns,
    critical_steps_as_run: asRun,
    critical_steps_if_parallel: ifParallel,
    critical_steps_saved: asRun - ifParallel,
  };
}

/**
 * The finding for a native spec §5 record: it has no timing, so no serial pattern can be
 * observed; both critical-step figures are the record's own.
 */
export function recordFinding(id: string, stages: readonly StageRecord[] | undefined): SerialCollapseFinding {
  const cs = stages === undefined ? 0 : criticalSteps(stages).critical_steps;
  return {
    trace_id: id,
    serial_collapse: false,
    patterns: [],
    critical_steps_as_run: cs,
    critical_steps_if_parallel: cs,
    critical_steps_saved: 0,
  };
}
