import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParlInputError, resolveOptions } from '@parl/core';
import { messageText, startChatEndpoint, type ChatEndpoint } from '@parl/test-support/chat-endpoint';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swarmEval, swarmRun, SwarmEpisodesFailedError, SwarmScoreError, SWARM_EVAL_OPTIONS, SWARM_RUN_OPTIONS, type RolloutLine } from '../src/index.js';
import { fileTasks } from '../src/tasks/scored-tasks.js';
import { readTaskFile } from '../src/tasks/task-file.js';
import { runRolloutJob } from '../src/jobs/rollout-job.js';
import { rolloutJob, taskRowOf } from '../src/jobs/rollout-job.js';
import { numbersOf, orchestratorFrom, scriptedMock } from './support.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/tasks/', import.meta.url));
const WIDE = join(EXAMPLES, 'widesearch-tables.jsonl');
const BROWSE = join(EXAMPLES, 'browsecomp-questions.jsonl');

/** What the scripted orchestrator answers, by task: Earth within 1 %, Mars 3 % off; every landing right; one question right, one wrong. */
const ANSWERS: Readonly<Record<string, string>> = {
  'inner planets': '| planet | mean_radius_km |\n|---|---|\n| Mercury | 2440 |\n| Venus | 6052 |\n| Earth | 6400 |\n| Mars | 3500 |',
  'Apollo Moon landing':
    'mission | landing_date | lunar_module\nApollo 11 | 1969-07-20 | Eagle\nApollo 12 | 1969-11-19 | Intrepid\nApollo 14 | 1971-02-05 | Antares\nApollo 15 | 1971-07-30 | Falcon\nApollo 16 | 1972-04-21 | Orion\nApollo 17 | 1972-12-11 | Challenger',
  'Bernoulli numbers': 'She was Ada Lovelace.',
  'Lunar Roving Vehicle': 'Eagle',
};

/** An orchestrator that defines a sub-agent, assigns it the task once, then answers from {@link ANSWERS}. */
function scriptedOrchestrator() {
  return orchestratorFrom((_n, options) => {
    const turn = options.prompt.filter((m) => m.role === 'assistant').length;
    const user = options.prompt.find((m) => m.role === 'user');
    const prompt = user?.role === 'user' && user.content[0]?.type === 'text' ? user.content[0].text : '';
    const single = !(options.tools ?? []).some((t) => t.name === 'assign_task');
    if (!single && turn === 0) return [['create_subagent', { name: 'r', system_prompt: 'Research.' }]];
    if (!single && turn === 1) return [['assign_task', { agent: 'r', prompt }]];
    return Object.entries(ANSWERS).find(([key]) => prompt.includes(key))?.[1] ?? 'no idea';
  });
}

/** A judge that says yes when the response contains the correct answer. */
async function judge(): Promise<ChatEndpoint> {
  return startChatEndpoint((request) => {
    const prompt = messageText(request.messages.at(-1));
    const response = /\[response\]: (.*)/.exec(prompt)?.[1] ?? '';
    const correct = /\[correct_answer\]: (.*)/.exec(prompt)?.[1] ?? '';
    const yes = response.toLowerCase().includes(correct.toLowerCase());
    return { text: `extracted_final_answer: ${response}\nreasoning: compared.\ncorrect: ${yes ? 'yes' : 'no'}\nconfidence: 90`, usage: { prompt: 200, completion: 20 } };
  });
}

let dir: TempDir;
let judgeEndpoint: ChatEndpoint;
beforeAll(async () => {
  dir = await makeTempDir('swarm-task-runs');
  judgeEndpoint = await judge();
});
afterAll(async () => {
  await judgeEndpoint.close();
  await dir.remove();
});

const sub = scriptedMock(['I looked it up.'], 'mock-subagent');
const models = (orchestrator: ReturnType<typeof scriptedOrchestrator>) => (name: string) => (name === 'sub' ? sub : orchestrator);

describe('tasks from files, scored through the registry', () => {
  it('parl swarm run on a WideSearch-shaped file: each record has r_perf = item F1, the score with item and row F1, and the row\'s metadata', async () => {
    const out = join(dir.path, 'wide.jsonl');
    const options = resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://127.0.0.1:9/v1', model: 'm', 'subagent-model': 'sub', 'tasks-file': WIDE, out }, 'flag');
    const lines: RolloutLine[] = [];
    await swarmRun(options, { models: models(scriptedOrchestrator()), onLine: (l) => { lines.push(l); } });
    expect(lines.map((l) => l['task_id'])).toEqual(['ws-inner-planets', 'ws-apollo-landings']);
    const [planets, apollo] = lines;
    expect(planets?.['score']).toMatchObject({ scorer: 'table', success: false, item_precision: 0.75, item_recall: 0.75, row_f1: 0.75 });
    expect(planets?.['r_perf']).toBeCloseTo(0.75, 12);
    expect(planets?.['metadata']).toEqual({ topic: 'astronomy', source: 'NASA planetary fact sheet' });
    expect(apollo?.['score']).toMatchObject({ scorer: 'table', r_perf: 1, success: true, item_f1: 1, row_f1: 1 });
    // Each record is exact: define, assign (one sub-agent, one step), answer.
    expect(numbersOf(planets as object)).toEqual({ critical_steps: 4, total_steps: 4, num_subagents: 1 });
    expect((await readFile(out, 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { score: { scorer: string } }).score.scorer)).toEqual(['table', 'table']);
  });

  it('parl swarm eval on a BrowseComp-shaped file with the judge: per-task scores with the judge\'s reply and usage, and no judge call in the critical steps', async () => {
    const options = resolveOptions(
      SWARM_EVAL_OPTIONS,
      { 'base-url': 'http://127.0.0.1:9/v1', model: 'm', 'subagent-model': 'sub', 'tasks-file': BROWSE, 'judge-base-url': judgeEndpoint.baseURL, 'judge-model': 'grader', targets: '0.5' },
      'flag',
    );
    const before = judgeEndpoint.requests.length;
    const evaluation = await swarmEval(options, { models: models(scriptedOrchestrator()) });
    expect(judgeEndpoint.requests.length - before).toBe(4);
    expect(evaluation).toMatchObject({ suite: null, tasks_file: BROWSE, tasks: 2 });
    expect(evaluation.records.swarm.map((r) => [r.task_id, r.r_perf, r.score['correct']])).toEqual([
      ['bc-analytical-engine', 1, 'yes'],
      ['bc-hadley-module', 0, 'no'],
    ]);
    expect(evaluation.records.swarm[0]?.score).toMatchObject({ scorer: 'judge', model: 'judge.chat/grader', usage: { input_tokens: 200, output_tokens: 20 }, confidence: 90 });
    expect(evaluation.records.swarm[0]?.['metadata']).toEqual({ difficulty: 'easy' });
    // Three orchestrator calls and one sub-agent call: the judge's calls are no steps.
    expect(evaluation.records.swarm.map((r) => numbersOf(r).critical_steps)).toEqual([4, 4]);
    expect(evaluation.swarm.r_perf).toBe(0.5);
  });

  it('a judge scorer without --judge-model is one line before any episode', async () => {
    const options = resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://127.0.0.1:9/v1', model: 'm', 'tasks-file': BROWSE }, 'flag');
    let calls = 0;
    const orchestrator = orchestratorFrom(() => {
      calls++;
      return 'x';
    });
    await expect(swarmRun(options, { models: () => orchestrator })).rejects.toThrow(/^--judge-model must be given .*task "bc-analytical-engine" is scored by the judge/);
    expect(calls).toBe(0);
  });

  it('a module scorer that throws fails its episode with a named error (no line); the others are written and kept in the partial file for the rerun', async () => {
    const scorer = join(dir.path, 'picky.mjs');
    await writeFile(scorer, 'export default (answer, task) => { if (task.id === "qa-boiling") throw new Error("cannot grade numbers"); return 1; };\n');
    const file = join(dir.path, 'qa.jsonl');
    await writeFile(file, ['{"id":"qa-capital","prompt":"Capital of Australia?","answer":"Canberra"}', '{"id":"qa-boiling","prompt":"Water boils at?","answer":"100"}'].join('\n'));
    const out = join(dir.path, 'qa-out.jsonl');
    const options = resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://127.0.0.1:9/v1', model: 'm', 'tasks-file': file, scorer: `module:${scorer}`, out }, 'flag');
    const failure = await swarmRun(options, { models: () => scriptedMock(['Canberra']) }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SwarmEpisodesFailedError);
    expect((failure as SwarmEpisodesFailedError).failures.map((f) => f.reason)).toEqual([`scorer module:${scorer} on task qa-boiling: it threw Error: cannot grade numbers`]);
    const partial = (await readFile(`${out}.partial`, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { task_id: string; score: unknown });
    expect(partial.map((l) => [l.task_id, l.score])).toEqual([['qa-capital', { scorer: `module:${scorer}`, r_perf: 1 }]]);
  });

  it('the suites\' settings reach the command: --entities, --attributes, --hops; --scorer applies to a suite\'s tasks too', async () => {
    const seen: string[] = [];
    const orchestrator = orchestratorFrom((_n, options) => {
      const user = options.prompt.find((m) => m.role === 'user');
      seen.push(user?.role === 'user' && user.content[0]?.type === 'text' ? user.content[0].text : '');
      return 'nothing';
    });
    const run = async (extra: Record<string, string>): Promise<RolloutLine[]> => {
      const lines: RolloutLine[] = [];
      await swarmRun(resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://127.0.0.1:9/v1', model: 'm', tasks: '1', ...extra }, 'flag'), { models: () => orchestrator, onLine: (l) => { lines.push(l); } });
      return lines;
    };
    await run({ suite: 'wide', entities: '2', attributes: '4' });
    expect(seen.at(-1)).toMatch(/^Fill in this table: for each of the entities [^,]+, [^,]+, give its \w+, \w+, \w+, \w+\. /);
    const [deep] = await run({ suite: 'deep', hops: '7', scorer: 'regex:nothing' });
    expect(seen.at(-1)).toMatch(/: 7 steps in all\./);
    expect(deep?.['score']).toEqual({ scorer: 'regex:nothing', r_perf: 1, matched: 'nothing' });
    expect(() => resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://x', model: 'm', attributes: '9' }, 'flag')).toThrow(/^--attributes must be an integer from 1 to 6/);
  });
});

describe('tasks across machines: a job carries its row, never a path or code', () => {
  const base = { 'base-url': 'http://127.0.0.1:9/v1', model: 'm', 'subagent-model': 'sub' };

  it('a worker runs a file task from the row its job carries, scored as the coordinator would', async () => {
    const [task] = await fileTasks(await readTaskFile(WIDE), undefined, {});
    const row = taskRowOf(task as NonNullable<typeof task>);
    expect(row).toMatchObject({ id: 'ws-inner-planets', scorer: 'table', metadata: { topic: 'astronomy' } });
    const job = rolloutJob(resolveOptions(SWARM_RUN_OPTIONS, { ...base, 'tasks-file': WIDE }, 'flag'), 0, 0, false, row);
    expect(JSON.stringify(job)).not.toContain(EXAMPLES);
    const { line } = await runRolloutJob(JSON.parse(JSON.stringify(job)), { models: models(scriptedOrchestrator()) });
    expect(line).toMatchObject({ group_id: 'ws-inner-planets', task_id: 'ws-inner-planets', metadata: { topic: 'astronomy', source: 'NASA planetary fact sheet' } });
    expect(line['r_perf']).toBeCloseTo(0.75, 12);
  });

  it('a job naming a scorer module or a task file is refused on the worker, named', async () => {
    const options = resolveOptions(SWARM_RUN_OPTIONS, base, 'flag');
    const row = { id: 'x', prompt: 'P', answer: 'a', scorer: 'module:/tmp/evil.mjs' };
    const runs = [
      { ...rolloutJob(options, 0, 0, false), row },
      { ...rolloutJob(options, 0, 0, false), options: { ...rolloutJob(options, 0, 0, false).options, scorer: 'module:/tmp/evil.mjs' } },
      { ...rolloutJob(options, 0, 0, false), options: { ...rolloutJob(options, 0, 0, false).options, 'tasks-file': '/etc/passwd' } },
    ];
    const errors = await Promise.all(runs.map((job) => runRolloutJob(job, { models: () => scriptedMock(['x']) }).catch((e: unknown) => e as Error)));
    for (const e of errors) expect(e).toBeInstanceOf(ParlInputError);
    expect(errors.map((e) => (e as Error).message)).toEqual([
      'job.row.scorer must be a scorer that names no code: with --queue, a job never names a module (a worker runs only its own code), got "module:/tmp/evil.mjs"',
      'job.options.scorer must be a scorer that names no code: with --queue, a job never names a module (a worker runs only its own code), got "module:/tmp/evil.mjs"',
      'job.options must be no path: a job carries its task row, never a file on the coordinator\'s disk, got "tasks-file"',
    ]);
  });

  it('parl swarm run --queue with a module scorer is refused before anything is queued', async () => {
    const scorer = join(dir.path, 'ok.mjs');
    await writeFile(scorer, 'export default () => 1;\n');
    const options = resolveOptions(SWARM_RUN_OPTIONS, { ...base, 'tasks-file': WIDE, scorer: `module:${scorer}`, queue: 'redis://127.0.0.1:9' }, 'flag');
    await expect(swarmRun(options)).rejects.toThrow(/^--scorer must be a scorer that names no code: with --queue/);
  });
});
