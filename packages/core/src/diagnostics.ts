/**
 * Diagnostics for the two failure modes PARL exists to fix (spec §1): serial collapse
 * (the orchestrator runs everything itself, one step after another) and spurious parallelism
 * (many sub-agents that finish nothing).
 *
 * @module
 */
import { criticalStepsOfStages, parallelismOf } from './critical-steps.js';
import { ParlInputError } from './errors.js';
import type { NormalizedStage } from './records.js';

/** Thresholds that turn the indicators into yes/no findings. */
export interface DiagnosticThresholds {
  /** Serial collapse when at least this share of stages has width ≤ 1 (default 0.8). */
  readonly serialStageShare?: number;
  /** Spurious parallelism when at least this share of sub-agents finished nothing (default 0.5). */
  readonly idleSubagentShare?: number;
}

/** The default {@link DiagnosticThresholds}. */
export const DEFAULT_DIAGNOSTIC_THRESHOLDS: Required<DiagnosticThresholds> = {
  serialStageShare: 0.8,
  idleSubagentShare: 0.5,
};

/** Indicators over one or many episodes. */
export interface Diagnostics {
  /** Episodes looked at. */
  readonly episodes: number;
  /** Stages looked at. */
  readonly stages: number;
  /** Sub-agents looked at. */
  readonly subagents: number;
  /** Share of stages whose group has width ≤ 1 (a direct tool call, or a single sub-agent). */
  readonly serial_stage_share: number;
  /** Mean group size over stages that launch a group (0 when none does). */
  readonly mean_width: number;
  /** Share of sub-agents marked `finished: false`: they finished nothing. */
  readonly idle_subagent_share: number;
  /**
   * Σ total steps / Σ critical steps over the episodes: spec §2's parallelism of the work taken
   * together (1 when critical steps are 0). Not the speed-up of a policy over the serial baseline,
   * which is `speedupOverSerial` (`sweep-stats.ts`).
   */
  readonly parallelism: number;
  /** True when serial_stage_share reaches its threshold. */
  readonly serial_collapse: boolean;
  /** True when idle_subagent_share reaches its threshold. */
  readonly spurious_parallelism: boolean;
}

/**
 * Serial-collapse and spurious-parallelism indicators over one or many validated episodes'
 * stages.
 *
 * @param episodes - the stages of each episode (from {@link validateRecord} or {@link validateStages})
 * @param thresholds - when the indicators count as findings
 *
 * @example
 * ```ts
 * const stages = validateStages([{ main_steps: 1, sub_steps: [4] }, { main_steps: 1 }]);
 * diagnose([stages]).serial_collapse; // true: every stage has width ≤ 1
 * ```
 */
export function diagnose(
  episodes: readonly (readonly NormalizedStage[])[],
  thresholds: DiagnosticThresholds = {},
): Diagnostics {
  const serialShare = thresholds.serialStageShare ?? DEFAULT_DIAGNOSTIC_THRESHOLDS.serialStageShare;
  const idleShare = thresholds.idleSubagentShare ?? DEFAULT_DIAGNOSTIC_THRESHOLDS.idleSubagentShare;
  for (const [name, v] of [
    ['serialStageShare', serialShare],
    ['idleSubagentShare', idleShare],
  ] as const) {
    if (!(v >= 0 && v <= 1)) throw new ParlInputError(name, v, 'a share between 0 and 1');
  }
  let stages = 0;
  let serialStages = 0;
  let groups = 0;
  let widthSum = 0;
  let subagents = 0;
  let idle = 0;
  let critical = 0;
  let total = 0;
  for (const episode of episodes) {
    const cs = criticalStepsOfStages(episode);
    critical += cs.critical_steps;
    total += cs.total_steps;
    for (const stage of episode) {
      stages++;
      const width = stage.sub.length;
      if (width <= 1) serialStages++;
      if (width > 0) {
        groups++;
        widthSum += width;
      }
      subagents += width;
      for (const f of stage.finished) if (f === false) idle++;
    }
  }
  const serial_stage_share = stages === 0 ? 0 : serialStages / stages;
  const idle_subagent_share = subagents === 0 ? 0 : idle / subagents;
  return {
    episodes: episodes.length,
    stages,
    subagents,
    serial_stage_share,
    mean_width: groups === 0 ? 0 : widthSum / groups,
    idle_subagent_share,
    parallelism: parallelismOf(total, critical),
    serial_collapse: stages > 0 && serial_stage_share >= serialShare,
    spurious_parallelism: subagents > 0 && idle_subagent_share >= idleShare,
  };
}
