/**
 * What a swarm task is: the prompt the orchestrator gets, the tools over the task's corpus, and
 * the scorer that turns the final answer into r_perf.
 *
 * @module
 */

/** A tool over the task's corpus (a frozen program: same arguments, same answer). */
export interface TaskTool {
  /** Tool name. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description: string;
  /** Its string arguments, each required: name → description. */
  readonly parameters: Readonly<Record<string, string>>;
  /** Run the tool on validated string arguments; the result is what the model reads. */
  run(args: Readonly<Record<string, string>>): string;
}

/** The suites of spec §10. */
export const SUITE_NAMES = ['wide', 'deep', 'mixed'] as const;

/** A suite name. */
export type SuiteName = (typeof SUITE_NAMES)[number];

/** One task. */
export interface SwarmTask {
  /** Task id, unique within its suite and seed (e.g. `wide-s1-3`). */
  readonly id: string;
  /** The suite it came from (`mixed` tasks are `wide` or `deep`). */
  readonly kind: 'wide' | 'deep';
  /** The user message to the orchestrator. It never asks for parallelism. */
  readonly prompt: string;
  /** The tools over the corpus: the sub-agents', also callable by the orchestrator directly. */
  readonly tools: readonly TaskTool[];
  /** r_perf in [0, 1] of a final answer. */
  score(answer: string): number;
}
