/**
 * What a swarm task is: the prompt the orchestrator gets, the tools over the task's corpus, and
 * the scorer that turns the final answer into r_perf (spec §10.2) — from a built-in suite or a
 * task file (spec §10.1).
 *
 * @module
 */
import type { AcceptedAnswer } from '../scoring/accepted-answer.js';
import type { ScoreValue } from '../scoring/task-score.js';

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
  /** Task id, unique within its suite and seed (e.g. `wide-s1-3`) or its file. */
  readonly id: string;
  /** Where it came from: a suite's kind (`mixed` tasks are `wide` or `deep`), or `file`. */
  readonly kind: 'wide' | 'deep' | 'file';
  /** The user message to the orchestrator. A suite's never asks for parallelism. */
  readonly prompt: string;
  /** The tools over the corpus: the sub-agents', also callable by the orchestrator directly. */
  readonly tools: readonly TaskTool[];
  /** What the scorer compares with, when the task has one. */
  readonly answer?: AcceptedAnswer | undefined;
  /** The scorer's name (the record's `score.scorer`; `task` when absent). */
  readonly scorer?: string | undefined;
  /** Copied into the record unchanged (a task file's `metadata`). */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  /**
   * r_perf in [0, 1] of a final answer, or a `score` object `{scorer, r_perf, …}`; may be async.
   * `signal` aborts when the episode is cancelled (a judge's request is then aborted).
   */
  score(answer: string, signal?: AbortSignal): ScoreValue | Promise<ScoreValue>;
}
