/**
 * The summary of a run's rollout lines, tallied as they stream past (no line is kept).
 *
 * @module
 */
import type { SampleLine } from './rollout-file.js';

/** What a run's lines add up to. */
export interface RolloutSummary {
  /** Lines written (tasks × group size). */
  readonly episodes: number;
  /** Of those, episodes run by this call (the rest were finished before: a resume). */
  readonly ran: number;
  /** Of those, episodes finished by an earlier run and resumed. */
  readonly resumed: number;
  /** Mean r_perf (0 without lines). */
  readonly r_perf: number;
  /** Mean critical steps. */
  readonly critical_steps: number;
  /** Mean sub-agents launched. */
  readonly num_subagents: number;
  /** Episodes the budget cut. */
  readonly budget_exhausted: number;
  /** The orchestrator's tool calls, over every episode. */
  readonly orchestrator_tool_calls: number;
  /** Of those, the malformed ones (rejected before they ran). */
  readonly malformed_tool_calls: number;
}

const num = (line: SampleLine, key: string): number => {
  const v = line[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
};

/** A running tally of lines. */
export class RolloutTally {
  /** Episodes run by this call. */
  ran = 0;
  private episodes = 0;
  private sums = { r_perf: 0, critical_steps: 0, num_subagents: 0, budget_exhausted: 0, orchestrator_tool_calls: 0, malformed_tool_calls: 0 };

  /** @param resumed - episodes finished before this call */
  constructor(private readonly resumed: number) {}

  /** Count one final line. */
  add(line: SampleLine): void {
    this.episodes++;
    this.sums.r_perf += num(line, 'r_perf');
    this.sums.critical_steps += num(line, 'critical_steps');
    this.sums.num_subagents += num(line, 'num_subagents');
    if (line['budget_exhausted'] === true) this.sums.budget_exhausted++;
    this.sums.orchestrator_tool_calls += num(line, 'orchestrator_tool_calls');
    this.sums.malformed_tool_calls += num(line, 'malformed_tool_calls');
  }

  /** The summary so far. */
  summary(): RolloutSummary {
    const mean = (sum: number): number => (this.episodes === 0 ? 0 : sum / this.episodes);
    return {
      episodes: this.episodes,
      ran: this.ran,
      resumed: this.resumed,
      r_perf: mean(this.sums.r_perf),
      critical_steps: mean(this.sums.critical_steps),
      num_subagents: mean(this.sums.num_subagents),
      budget_exhausted: this.sums.budget_exhausted,
      orchestrator_tool_calls: this.sums.orchestrator_tool_calls,
      malformed_tool_calls: this.sums.malformed_tool_calls,
    };
  }
}
