/**
 * What a scorer is (spec §10.2): it turns the final answer (the orchestrator's last message) into
 * r_perf in [0, 1] and a `score` object kept in the record, `{scorer, r_perf, …details}`.
 *
 * @module
 */
import type { AcceptedAnswer } from './accepted-answer.js';

/** How an answer was scored: the record's `score`. */
export interface Score {
  /** The scorer's name as given (`exact`, `number:0.5%`, `module:./score.mjs`…). */
  readonly scorer: string;
  /** r_perf in [0, 1]. */
  readonly r_perf: number;
  /** What the scorer found (precision, recall, the judge's reply…). */
  readonly [detail: string]: unknown;
}

/** What a scorer sees of a task. */
export interface ScoredTask {
  /** The task id. */
  readonly id: string;
  /** The user message the orchestrator got. */
  readonly prompt: string;
  /** What the answer is compared with (absent for scorers that need none, e.g. `regex:`). */
  readonly answer?: AcceptedAnswer | undefined;
  /** The row's metadata, as given. */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

/** A scorer: one module behind this interface per kind (see the registry). */
export interface Scorer {
  /** Its name as given (the record's `score.scorer`). */
  readonly name: string;
  /** Score `answer`, the orchestrator's final message, for `task`; `signal` aborts its requests (the episode was cancelled). */
  score(answer: string, task: ScoredTask, signal?: AbortSignal): Score | Promise<Score>;
}
