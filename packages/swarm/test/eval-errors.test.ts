/**
 * Errors of an episode in an evaluation (spec §10.2), handled as `swarmRun` handles them: a module
 * scorer that throws for one task and a judge on loopback HTTP that fails for one task leave that
 * task's episodes ungraded — never a made-up 0 in the totals — while every other episode is
 * graded; `swarmEval` rejects with SwarmEpisodesFailedError carrying the evaluation of the graded
 * ones, and given that evaluation back (`previous`, as `--out` holds it) runs only what failed.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveOptions } from '@parl/core';
import { messageText, startChatEndpoint } from '@parl/test-support/chat-endpoint';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swarmEval, SwarmEpisodesFailedError, SWARM_EVAL_OPTIONS, type SwarmEvaluation } from '../src/index.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('swarm-eval-errors');
});
afterAll(async () => {
  await dir.remove();
});

async function tasksFile(name: string, ids: readonly string[], scorer?: string): Promise<string> {
  const path = join(dir.path, name);
  await writeFile(path, ids.map((id) => `${JSON.stringify({ id, prompt: `What is ${id}?`, answer: 'x', ...(scorer === undefined ? {} : { scorer }) })}\n`).join(''));
  return path;
}

async function failureOf(run: Promise<unknown>): Promise<SwarmEpisodesFailedError<SwarmEvaluation>> {
  const err = await run.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof SwarmEpisodesFailedError)) throw new Error(`expected SwarmEpisodesFailedError, got ${String(err)}`);
  return err as SwarmEpisodesFailedError<SwarmEvaluation>;
}

/** What `parl swarm eval --out` writes and reads back: the evaluation as JSON. */
const asWritten = (evaluation: SwarmEvaluation): SwarmEvaluation => JSON.parse(JSON.stringify(evaluation)) as SwarmEvaluation;

describe('swarmEval: a module scorer that throws for one task', () => {
  it('grades every other episode, keeps the failed ones out of the totals, names them, and a rerun given the evaluation grades only those', async () => {
    // Scores 1, and records each task it scored; throws for a task with a `throw-<id>` file.
    const scored: string[] = [];
    (globalThis as { parlEvalScored?: string[] }).parlEvalScored = scored;
    const scorer = join(dir.path, 'throws-for-one.mjs');
    await writeFile(
      scorer,
      `import { existsSync } from 'node:fs';
export default (answer, task) => {
  globalThis.parlEvalScored.push(task.id);
  if (existsSync(new URL('./throw-' + task.id, import.meta.url))) throw new TypeError('cannot read the answer');
  return 1;
};\n`,
    );
    await writeFile(join(dir.path, 'throw-t2'), '');
    const file = await tasksFile('eval-module.jsonl', ['t1', 't2', 't3']);
    const options = resolveOptions(SWARM_EVAL_OPTIONS, { model: 'scripted:parallel', 'tasks-file': file, scorer: `module:${scorer}`, targets: '0.5', out: join(dir.path, 'eval-module.json') }, 'flag');
    const failed = await failureOf(swarmEval(options));
    expect(failed.code).toBe('PARL_ERR_EPISODES');
    expect(failed.message).toBe('2 episodes failed (not graded: left out of the evaluation\'s totals): run the same command again to run them again');
    expect(failed.failures.map((f) => [f.rollout_id, f.task_id, f.code, f.reason])).toEqual([
      ['t2/swarm', 't2', 'PARL_ERR_SCORE', `scorer module:${scorer} on task t2: it threw TypeError: cannot read the answer`],
      ['t2/single', 't2', 'PARL_ERR_SCORE', `scorer module:${scorer} on task t2: it threw TypeError: cannot read the answer`],
    ]);
    const evaluation = failed.summary;
    // Every other answer was graded; the failed grades are not zeros: the means are over the graded ones.
    expect(scored).toEqual(['t1', 't1', 't2', 't2', 't3', 't3']);
    expect(evaluation.swarm).toMatchObject({ graded: 2, failed: 1, r_perf: 1 });
    expect(evaluation.single_agent).toMatchObject({ graded: 2, failed: 1, r_perf: 1 });
    expect(evaluation.latency_to_target).toEqual([{ target: 0.5, swarm: expect.any(Number), single_agent: expect.any(Number) }]);
    expect(evaluation.records.swarm.map((r) => r.task_id)).toEqual(['t1', 't3']);
    expect(evaluation.records.single_agent.map((r) => r.task_id)).toEqual(['t1', 't3']);
    expect(evaluation.failures).toEqual(failed.failures);
    expect(evaluation.tasks).toBe(3);

    // Mended, the same call given the evaluation (as --out holds it) grades only t2's two episodes.
    await rm(join(dir.path, 'throw-t2'));
    scored.length = 0;
    const resumed = await swarmEval(options, { previous: asWritten(evaluation) });
    expect(scored).toEqual(['t2', 't2']);
    expect(resumed.resumed).toBe(4);
    expect(resumed.failures).toEqual([]);
    expect(resumed.swarm).toMatchObject({ graded: 3, failed: 0, r_perf: 1 });
    expect(resumed.records.swarm.map((r) => r.task_id)).toEqual(['t1', 't2', 't3']);
    expect(resumed.records.single_agent.map((r) => r.task_id)).toEqual(['t1', 't2', 't3']);
    expect(resumed.answers.swarm).toHaveLength(3);

    // An evaluation of other settings is not resumed: everything runs again.
    scored.length = 0;
    const other = resolveOptions(SWARM_EVAL_OPTIONS, { model: 'scripted:serial', 'tasks-file': file, scorer: `module:${scorer}`, targets: '0.5' }, 'flag');
    await expect(swarmEval(other, { previous: asWritten(evaluation) })).resolves.toMatchObject({ resumed: 0 });
    expect(scored).toHaveLength(6);

    // An evaluation file that is not whole (edited, cut short) is not resumed either, and never crashes the call.
    const damaged: Record<string, unknown>[] = [
      { ...asWritten(evaluation), eval_options: null },
      { ...asWritten(evaluation), records: { swarm: 'x', single_agent: [] } },
      { ...asWritten(evaluation), records: { swarm: [null], single_agent: [] } },
      { ...asWritten(evaluation), failures: 'x' },
    ];
    for (const previous of damaged) {
      scored.length = 0;
      await expect(swarmEval(options, { previous: previous as unknown as SwarmEvaluation })).resolves.toMatchObject({ resumed: 0 });
      expect(scored).toHaveLength(6);
    }
    delete (globalThis as { parlEvalScored?: string[] }).parlEvalScored;
  });
});

describe('swarmEval: a judge on loopback HTTP that fails for one task', () => {
  it('fails that task\'s episodes (never r_perf 0), each named; the other task is graded by the judge', async () => {
    // Correct for every task but q2, for which the judge answers HTTP 503 (past its retries).
    const judge = await startChatEndpoint((request) => {
      const prompt = messageText(request.messages.at(-1));
      if (prompt.includes('What is q2?')) return { status: 503, body: 'overloaded' };
      return { text: 'extracted_final_answer: x\nreasoning: same.\ncorrect: yes\nconfidence: 90' };
    });
    try {
      const file = await tasksFile('eval-judge.jsonl', ['q1', 'q2'], 'judge');
      const options = resolveOptions(SWARM_EVAL_OPTIONS, { model: 'scripted:parallel', 'tasks-file': file, 'judge-base-url': judge.baseURL, 'judge-model': 'grader', targets: '0.5' }, 'flag');
      const failed = await failureOf(swarmEval(options));
      expect(failed.message).toBe('2 episodes failed (not graded: left out of the evaluation\'s totals): with --out FILE a rerun of the same command runs only the failed episodes');
      expect(failed.failures.map((f) => [f.rollout_id, f.code])).toEqual([
        ['q2/swarm', 'PARL_ERR_SCORE'],
        ['q2/single', 'PARL_ERR_SCORE'],
      ]);
      expect(failed.failures[0]?.reason).toMatch(/^scorer judge on task q2: the judge judge\.chat\/grader gave no reply: model judge\.chat\/grader failed after 3 attempts: HTTP 503/);
      const evaluation = failed.summary;
      expect(evaluation.swarm).toMatchObject({ graded: 1, failed: 1, r_perf: 1 });
      expect(evaluation.single_agent).toMatchObject({ graded: 1, failed: 1, r_perf: 1 });
      expect(evaluation.records.swarm.map((r) => [r.task_id, r.r_perf])).toEqual([['q1', 1]]);
      // q1 judged once per mode; q2 asked 3 times per mode.
      expect(judge.requests).toHaveLength(2 + 6);
    } finally {
      await judge.close();
    }
  });
});

describe('swarmEval: a scorer that fails for every task', () => {
  it('grades nothing: each mode\'s means are null (never NaN or 0), and so is its JSON', async () => {
    const scorer = join(dir.path, 'always-throws.mjs');
    await writeFile(scorer, "export default () => { throw new Error('grader offline'); };\n");
    const file = await tasksFile('eval-none.jsonl', ['n1', 'n2']);
    const options = resolveOptions(SWARM_EVAL_OPTIONS, { model: 'scripted:parallel', 'tasks-file': file, scorer: `module:${scorer}`, targets: '0.5' }, 'flag');
    const failed = await failureOf(swarmEval(options));
    expect(failed.failures).toHaveLength(4);
    for (const mode of [failed.summary.swarm, failed.summary.single_agent]) {
      expect(mode).toEqual({ graded: 0, failed: 2, r_perf: null, critical_steps: null, subagents: null, finish_rate: null });
    }
    expect(failed.summary.latency_to_target).toEqual([{ target: 0.5, swarm: null, single_agent: null }]);
    expect(asWritten(failed.summary).swarm).toEqual(failed.summary.swarm);
  });
});
