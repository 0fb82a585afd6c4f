/**
 * The tasks a command runs: a task file's rows (`--tasks-file`, every row checked first; the
 * first N with `--tasks N`; `--suite` and `--seed` refused beside it) or a
 * built-in suite from the registry with its settings (`--suite`, `--entities`, `--attributes`,
 * `--hops`), each bound to its scorer (`--scorer` or the row's own), the judge built when a
 * scorer needs it. Everything here happens before any episode starts.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { SuiteName } from '../tasks/task.js';
import type { SwarmTask } from '../tasks/task.js';
import { isAnswerTable } from '../scoring/accepted-answer.js';
import type { JudgeClient } from '../scoring/judge-client.js';
import type { ScorerContext } from '../scoring/scorer-registry.js';
import { parseScorerSpec } from '../scoring/scorer-spec.js';
import { fileTasks, suiteTasksScored } from '../tasks/scored-tasks.js';
import { generateSuite } from '../tasks/suites.js';
import { GENERATED_SUITE_DEFAULTS } from '../tasks/suites/suite-settings.js';
import { readTaskFile, TASKS_FILE_FLAG } from '../tasks/task-file.js';
import { defaultScorer, type TaskRow } from '../tasks/task-row.js';
import { requestRetry } from './episode-settings.js';
import { judgeEndpoint } from './judge-endpoint.js';

/** The options the tasks come from. */
export interface TaskSourceOptions {
  readonly baseUrl?: string | undefined;
  /** The suite (default {@link GENERATED_SUITE_DEFAULTS}'s); refused beside a task file. */
  readonly suite?: SuiteName | undefined;
  /** Tasks to generate, or the task file's first N rows (default: 10, or every row). */
  readonly tasks?: number | undefined;
  /** The suite's seed; refused beside a task file. */
  readonly seed?: number | undefined;
  readonly entities?: number | undefined;
  readonly attributes?: number | undefined;
  readonly hops?: number | undefined;
  readonly tasksFile?: string | undefined;
  readonly scorer?: string | undefined;
  readonly judgeBaseUrl?: string | undefined;
  readonly judgeModel?: string | undefined;
  /** Seconds one judge request may take (`--request-timeout`; its attempts are the model calls'). */
  readonly requestTimeout?: number | undefined;
  /** Seconds a `module:` scorer may take on one answer (`--scorer-timeout`). */
  readonly scorerTimeout?: number | undefined;
}

/** Where the tasks come from besides the options. */
export interface TaskSourceHooks {
  /** The judge instead of the one on `--judge-base-url` (tests, a caller with its own provider). */
  readonly judge?: JudgeClient | undefined;
  /** The environment the judge's key is read from. */
  readonly env?: NodeJS.ProcessEnv | undefined;
}

/** Whether a row is scored by the judge, or has a table column the judge compares. */
function usesJudge(row: TaskRow, runScorer: string | undefined): boolean {
  const scorer = row.scorer ?? runScorer ?? defaultScorer(row.answer);
  if (parseScorerSpec(scorer).kind === 'judge') return true;
  return isAnswerTable(row.answer) && Object.values(row.answer.metrics ?? {}).includes('judge');
}

/**
 * The judge of a run: the hooks', else the one on `--judge-base-url` (default `--base-url`) with
 * `--judge-model`; undefined without `--judge-model`.
 *
 * @throws {@link @parl/core!ParlInputError} for `--judge-base-url` without `--judge-model`
 */
export function judgeOf(options: TaskSourceOptions, hooks: TaskSourceHooks): JudgeClient | undefined {
  if (hooks.judge !== undefined) return hooks.judge;
  if (options.judgeModel === undefined) {
    if (options.judgeBaseUrl !== undefined) throw new ParlInputError('--judge-base-url', options.judgeBaseUrl, 'given with --judge-model');
    return undefined;
  }
  const url = options.judgeBaseUrl ?? options.baseUrl;
  if (url === undefined) throw new ParlInputError('--judge-base-url', '(none)', 'the judge\'s endpoint: --judge-base-url URL (or --base-url, which it defaults to)');
  return judgeEndpoint(url, options.judgeModel, hooks.env, requestRetry(options.requestTimeout));
}

/**
 * The run's tasks, bound to their scorers.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad task row, a scorer module that does not
 *   load, or a judge scorer without `--judge-model`
 */
export async function loadTasks(options: TaskSourceOptions, hooks: TaskSourceHooks = {}): Promise<SwarmTask[]> {
  const judge = judgeOf(options, hooks);
  const context: ScorerContext = { judge, ...(options.scorerTimeout === undefined ? {} : { scorerTimeoutMs: options.scorerTimeout * 1000 }) };
  if (options.tasksFile !== undefined) {
    // Settings that only shape generated suites are refused beside a file (spec §10.1).
    if (options.suite !== undefined) throw new ParlInputError('--suite', options.suite, `not given with ${TASKS_FILE_FLAG}: the tasks are the file's rows`);
    if (options.seed !== undefined) throw new ParlInputError('--seed', options.seed, `not given with ${TASKS_FILE_FLAG}: the tasks are the file's rows, and no suite is generated`);
    const all = await readTaskFile(options.tasksFile, options.scorer);
    // --tasks N: the file's first N rows, in file order.
    const rows = options.tasks === undefined ? all : all.slice(0, options.tasks);
    const needing = rows.find((r) => usesJudge(r, options.scorer));
    if (needing !== undefined && judge === undefined) {
      throw new ParlInputError('--judge-model', undefined, `given (with --judge-base-url when the judge is elsewhere): task ${JSON.stringify(needing.id)} is scored by the judge`);
    }
    return fileTasks(rows, options.scorer, context);
  }
  const tasks = generateSuite(options.suite ?? GENERATED_SUITE_DEFAULTS.suite, {
    ...options,
    tasks: options.tasks ?? GENERATED_SUITE_DEFAULTS.tasks,
    seed: options.seed ?? GENERATED_SUITE_DEFAULTS.seed,
  });
  if (options.scorer === undefined) return tasks;
  if (parseScorerSpec(options.scorer).kind === 'judge' && judge === undefined) throw new ParlInputError('--judge-model', undefined, 'given for --scorer judge');
  return suiteTasksScored(tasks, options.scorer, context);
}
