/**
 * Tasks bound to scorers of the registry: a task file's rows (each with its own scorer, else the
 * run's, else `table` for a table answer and `exact` for the rest) and a suite's tasks under a
 * run's `--scorer`. The scorers are made once, before any episode starts.
 *
 * @module
 */
import type { ScoredTask, Scorer } from '../scoring/score.js';
import { makeScorers, type ScorerContext } from '../scoring/scorer-registry.js';
import { defaultScorer, type TaskRow } from './task-row.js';
import type { SwarmTask } from './task.js';

/** `task` scored by `scorer`, which sees the task as `{id, prompt, answer, metadata}`. */
export function withScorer(task: SwarmTask, scorer: Scorer): SwarmTask {
  const seen: ScoredTask = {
    id: task.id,
    prompt: task.prompt,
    ...(task.answer === undefined ? {} : { answer: task.answer }),
    ...(task.metadata === undefined ? {} : { metadata: task.metadata }),
  };
  return { ...task, scorer: scorer.name, score: (answer, signal) => scorer.score(answer, seen, signal) };
}

/** The scorer each row gets. */
function scorerName(row: TaskRow, runScorer: string | undefined): string {
  return row.scorer ?? runScorer ?? defaultScorer(row.answer);
}

/**
 * The tasks of a task file's rows (no tools of their own: the run's tool providers give them).
 *
 * @throws {@link @parl/core!ParlInputError} for a scorer module that does not load, or `judge` without a judge
 */
export async function fileTasks(rows: readonly TaskRow[], runScorer: string | undefined, context: ScorerContext): Promise<SwarmTask[]> {
  const scorers = await makeScorers(rows.map((r) => scorerName(r, runScorer)), context);
  return rows.map((row) => {
    const task: SwarmTask = {
      id: row.id,
      kind: 'file',
      prompt: row.prompt,
      tools: [],
      ...(row.answer === undefined ? {} : { answer: row.answer }),
      ...(row.metadata === undefined ? {} : { metadata: row.metadata }),
      score: () => 0,
    };
    return withScorer(task, scorers.get(scorerName(row, runScorer)) as Scorer);
  });
}

/** A suite's tasks under the run's `--scorer`. */
export async function suiteTasksScored(tasks: readonly SwarmTask[], runScorer: string, context: ScorerContext): Promise<SwarmTask[]> {
  const scorer = (await makeScorers([runScorer], context)).get(runScorer) as Scorer;
  return tasks.map((t) => withScorer(t, scorer));
}
