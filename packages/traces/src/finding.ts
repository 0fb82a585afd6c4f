/**
 * The serial-collapse finding of one trace: sub-agents that ran one after another although
 * neither could have consumed the other's result, and what launching them together would save.
 *
 * @module
 */
import { criticalSteps, type StageRecord } from '@parl/core';
import { stagesOf, type SubAgentRef, type TraceMapping } from './mapping.js';

/** Sub-agents of one orchestrator turn that ran in more than one wave. */
export interface SerialGroup {
  /** The orchestrator turn (1 = after its first LLM call; 0 = before it). */
  readonly turn: number;
  /** The waves in the order they ran; no two waves overlap in time. */
  readonly waves: readonly (readonly SubAgentRef[])[];
}

/**
 * Serial collapse observed in one trace (JSON field names in the spec's style).
 *
 * Two sub-agents ran serially although neither consumed the other's result when: the second
 * started after the first ended (no overlap), neither is inside the other (no parent/child
 * link: both are direct sub-agents of the orchestrator), and no orchestrator LLM call started
 * between them, so the orchestrator could not have read the first one's result before launching
 * the second.
 */
export interface SerialCollapseFinding {
  /** The trace (or record id) the finding is about. */
  readonly trace_id: string;
  /** True when at least one turn ran its sub-agents in more than one wave. */
  readonly serial_collapse: boolean;
  /** The turns whose sub-agents ran one wave after another. */
  readonly serial_groups: readonly SerialGroup[];
  /** Critical steps of the trace as it ran (each wave its own stage), by `@parl/core`. */
  readonly critical_steps_as_run: number;
  /** Critical steps had each turn launched all its sub-agents together, by `@parl/core`. */
  readonly critical_steps_if_launched_together: number;
  /** critical_steps_as_run − critical_steps_if_launched_together (≥ 0). */
  readonly critical_steps_saved: number;
}

/**
 * The serial-collapse finding of a mapped trace. Critical steps come from `@parl/core`'s
 * `criticalSteps` over the as-run stages (`overlap` grouping) and the launched-together stages
 * (`children` grouping).
 */
export function serialCollapseFinding(traceId: string, mapping: TraceMapping): SerialCollapseFinding {
  const serial_groups = mapping.turns.filter((t) => t.waves.length > 1).map((t) => ({ turn: t.turn, waves: t.waves }));
  const asRun = criticalSteps(stagesOf(mapping, 'overlap')).critical_steps;
  const together = criticalSteps(stagesOf(mapping, 'children')).critical_steps;
  return {
    trace_id: traceId,
    serial_collapse: serial_groups.length > 0,
    serial_groups,
    critical_steps_as_run: asRun,
    critical_steps_if_launched_together: together,
    critical_steps_saved: asRun - together,
  };
}

/**
 * The finding for a native spec §5 record: it has no timing, so no serial collapse can be
 * observed; both critical-step figures are the record's own.
 */
export function recordFinding(id: string, stages: readonly StageRecord[] | undefined): SerialCollapseFinding {
  const cs = stages === undefined ? 0 : criticalSteps(stages).critical_steps;
  return {
    trace_id: id,
    serial_collapse: false,
    serial_groups: [],
    critical_steps_as_run: cs,
    critical_steps_if_launched_together: cs,
    critical_steps_saved: 0,
  };
}
