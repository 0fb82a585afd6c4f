/**
 * The default number of labelling threads of `parl serve` (`labelThreads`).
 *
 * @module
 */
import { availableParallelism } from 'node:os';

/**
 * The default of the `labelThreads` option: one fewer than the cores Node may use (the event
 * loop keeps one), at least 1 and at most 4.
 */
export function defaultLabelThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}
