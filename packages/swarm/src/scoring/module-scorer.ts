/**
 * `module:PATH` (spec §10.2): the default export of the module at PATH (resolved from the working
 * directory), `(answer, task) => number | {r_perf, …}`, async allowed. The module is loaded once,
 * before any episode runs; a value outside [0, 1], a non-number, a throw, or no value within the
 * scorer timeout (`--scorer-timeout`) is a {@link SwarmScoreError}: an error of that episode.
 *
 * @module
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ParlInputError } from '@parl/core';
import { SwarmScoreError } from './score-error.js';
import type { Score, ScoredTask, Scorer } from './score.js';

/** How long a module scorer may take on one answer by default: 60 s (`--scorer-timeout`). */
export const DEFAULT_SCORER_TIMEOUT_MS = 60_000;

/** What a scoring module's default export is. */
export type ScoreFunction = (answer: string, task: ScoredTask) => unknown;

/** The r_perf and details of what a scoring function returned, or why it is not a score. */
export function scoreOfValue(name: string, value: unknown): Score | string {
  const details = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const r = details === undefined ? value : details['r_perf'];
  if (typeof r !== 'number' || Number.isNaN(r)) {
    return `returned ${details === undefined ? describe(value) : `an object whose r_perf is ${describe(r)}`}: expected a number in [0, 1] or {r_perf, …}`;
  }
  if (r < 0 || r > 1) return `returned r_perf ${r}: expected a number in [0, 1]`;
  return { ...(details ?? {}), scorer: name, r_perf: r };
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number') return String(value);
  return `${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
}

/**
 * Load the scorer module at `path`.
 *
 * @param field - the flag or row field that named it, for the error line
 * @param location - where it was named (`tasks.jsonl line 3`), if a row
 * @param timeoutMs - how long one scoring may take before it is an error of the episode
 * @throws {@link @parl/core!ParlInputError} when the module does not load or its default export is no function
 */
export async function loadModuleScorer(path: string, field = '--scorer', location?: string, timeoutMs = DEFAULT_SCORER_TIMEOUT_MS): Promise<Scorer> {
  const name = `module:${path}`;
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new ParlInputError(field, name, `a module that loads (it failed: ${reason})`, location);
  }
  const fn = mod.default;
  if (typeof fn !== 'function') throw new ParlInputError(field, name, 'a module whose default export is a function (answer, task) => number | {r_perf, …}', location);
  return {
    name,
    async score(answer, task) {
      let value: unknown;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new SwarmScoreError(name, task.id, `it gave no value within ${timeoutMs / 1000} s (--scorer-timeout)`)), timeoutMs);
      });
      try {
        value = await Promise.race([(async () => (fn as ScoreFunction)(answer, task))(), late]);
      } catch (err) {
        if (err instanceof SwarmScoreError) throw err;
        throw new SwarmScoreError(name, task.id, `it threw ${err instanceof Error ? `${err.name}: ${err.message.split('\n')[0]}` : String(err)}`, err);
      } finally {
        clearTimeout(timer);
      }
      const score = scoreOfValue(name, value);
      if (typeof score === 'string') throw new SwarmScoreError(name, task.id, `it ${score}`);
      return score;
    },
  };
}
