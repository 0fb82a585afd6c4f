/**
 * `parl swarm run` and `parl swarm eval --report` on task files (spec §10.1) with the scorers of
 * §10.2, end to end over real HTTP: a scripted OpenAI-compatible endpoint on 127.0.0.1 plays the
 * orchestrator and the sub-agents, another one the LLM judge.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageText, startChatEndpoint, type ChatEndpoint, type ChatReply, type ChatRequest } from '@parl/test-support/chat-endpoint';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/tasks/', import.meta.url));

/** The orchestrator's final answers, by a phrase of the task's prompt. */
const ANSWERS: Readonly<Record<string, string>> = {
  'inner planets': '| planet | mean_radius_km |\n|---|---|\n| Mercury | 2440 |\n| Venus | 6052 |\n| Earth | 6400 |\n| Mars | 3500 |',
  'Apollo Moon landing':
    '| mission | landing_date | lunar_module |\n|---|---|---|\n| Apollo 11 | 1969-07-20 | Eagle |\n| Apollo 12 | 1969-11-19 | Intrepid |\n| Apollo 14 | 1971-02-05 | Antares |\n| Apollo 15 | 1971-07-30 | Falcon |\n| Apollo 16 | 1972-04-21 | Orion |\n| Apollo 17 | 1972-12-11 | Challenger |',
  'Bernoulli numbers': 'She was Ada Lovelace.',
  'Lunar Roving Vehicle': 'Eagle',
};

/** The swarm's endpoint: `orch` defines a sub-agent, assigns it the task, then answers; `sub` answers at once. */
function swarmReply(request: ChatRequest): ChatReply {
  if (request.model === 'sub') return { text: 'I looked it up.' };
  const prompt = messageText(request.messages.find((m) => m.role === 'user'));
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  const swarm = (request.tools ?? []).some((t) => t.function.name === 'assign_task');
  if (swarm && turn === 0) return { toolCalls: [['create_subagent', { name: 'researcher', system_prompt: 'Find facts.' }]] };
  if (swarm && turn === 1) return { toolCalls: [['assign_task', { agent: 'researcher', prompt }]] };
  return { text: Object.entries(ANSWERS).find(([key]) => prompt.includes(key))?.[1] ?? 'no idea' };
}

/** The judge: yes when the response contains the correct answer; nonsense for `Eagle`. */
function judgeReply(request: ChatRequest): ChatReply {
  const prompt = messageText(request.messages.at(-1));
  const response = /\[response\]: (.*)/.exec(prompt)?.[1] ?? '';
  const correct = /\[correct_answer\]: (.*)/.exec(prompt)?.[1] ?? '';
  if (response === 'Eagle') return { text: 'The weather is nice today.' };
  return { text: `extracted_final_answer: ${response}\nreasoning: same person.\ncorrect: ${response.includes(correct) ? 'yes' : 'no'}\nconfidence: 95` };
}

let dir: TempDir;
let swarm: ChatEndpoint;
let judge: ChatEndpoint;
beforeAll(async () => {
  dir = await makeTempDir('cli-swarm-tasks');
  swarm = await startChatEndpoint(swarmReply);
  judge = await startChatEndpoint(judgeReply);
});
afterAll(async () => {
  await swarm?.close();
  await judge?.close();
  await dir?.remove();
});

const base = (): string[] => ['--base-url', swarm.baseURL, '--model', 'orch', '--subagent-model', 'sub'];

describe('parl swarm on task files', () => {
  it('run: a WideSearch-shaped file, scored by table; each line has r_perf, the score (item and row F1) and the metadata', async () => {
    const out = join(dir.path, 'wide.jsonl');
    const r = await parl(['swarm', 'run', ...base(), '--tasks-file', join(EXAMPLES, 'widesearch-tables.jsonl'), '--out', out]);
    expect(r.stderr).toMatch(/^parl swarm run: 2 episodes in .*wide\.jsonl; mean r_perf 0\.875,/);
    expect(r.code).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['task_id'], l['r_perf'], (l['score'] as Record<string, unknown>)['success']])).toEqual([
      ['ws-inner-planets', 0.75, false],
      ['ws-apollo-landings', 1, true],
    ]);
    expect(lines[0]?.['score']).toMatchObject({ scorer: 'table', item_f1: 0.75, row_f1: 0.75, rows_matched: 4 });
    expect(lines[0]?.['metadata']).toEqual({ topic: 'astronomy', source: 'NASA planetary fact sheet' });
  });

  it('eval --report: a BrowseComp-shaped file with the judge; the report shows each task\'s score, a judge that answers nonsense is r_perf 0 with its error', async () => {
    const out = join(dir.path, 'browse.json');
    const report = join(dir.path, 'browse.html');
    const r = await parl(['swarm', 'eval', ...base(), '--tasks-file', join(EXAMPLES, 'browsecomp-questions.jsonl'), '--judge-base-url', judge.baseURL, '--judge-model', 'grader', '--targets', '0.5', '--out', out, '--report', report]);
    expect(r.stderr).toMatch(/^parl swarm eval: r_perf 0\.5 \(swarm\)/);
    expect(r.code).toBe(0);
    const evaluation = JSON.parse(await readFile(out, 'utf8')) as { records: { swarm: { task_id: string; r_perf: number; score: Record<string, unknown> }[] } };
    const [ada, falcon] = evaluation.records.swarm;
    expect(ada?.score).toMatchObject({ scorer: 'judge', r_perf: 1, correct: 'yes', confidence: 95, model: 'judge.chat/grader' });
    expect(falcon?.score).toMatchObject({ scorer: 'judge', r_perf: 0, attempts: 3, error: 'the judge\'s reply did not parse (no "correct: yes|no") after 3 attempts' });
    const html = await readFile(report, 'utf8');
    const rows = [...html.matchAll(/<table id="tasks">[\s\S]*?<\/table>/g)][0]?.[0].match(/<tr>.*?<\/tr>/g) ?? [];
    const cells = rows.slice(1).map((row) => [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => m[1]));
    expect(cells).toEqual([
      // Each score beside the final answer it was given.
      ['bc-analytical-engine', 'judge', '1', '<pre>She was Ada Lovelace.</pre>', '1', '<pre>She was Ada Lovelace.</pre>', '—', '—', '—', ''],
      ['bc-hadley-module', 'judge', '0', '<pre>Eagle</pre>', '0', '<pre>Eagle</pre>', '—', '—', '—', 'the judge&#39;s reply did not parse (no &#34;correct: yes|no&#34;) after 3 attempts'],
    ]);
  });

  it('eval --report on tables shows item and row F1 per task', async () => {
    const report = join(dir.path, 'wide.html');
    const r = await parl(['swarm', 'eval', ...base(), '--tasks-file', join(EXAMPLES, 'widesearch-tables.jsonl'), '--targets', '0.5', '--out', join(dir.path, 'wide.json'), '--report', report]);
    expect(r.code).toBe(0);
    const html = await readFile(report, 'utf8');
    const full = /<table id="tasks">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    expect(full).toContain('<td class="answer"><pre>| planet | mean_radius_km |\n|---|---|\n| Mercury | 2440 |');
    const table = full.replace(/<td class="answer">[\s\S]*?<\/td>/g, '');
    expect(table).toContain('<tr><th>ws-inner-planets</th><td>table</td><td class="num">0.75</td><td class="num">0.75</td><td class="num">0.75</td><td class="num">0.75</td><td>no</td><td></td></tr>');
    expect(table).toContain('<tr><th>ws-apollo-landings</th><td>table</td><td class="num">1</td><td class="num">1</td><td class="num">1</td><td class="num">1</td><td>yes</td><td></td></tr>');
  });

  it('a bad tasks file is one line naming the file, the line and the field; nothing runs', async () => {
    const file = join(dir.path, 'bad.jsonl');
    await writeFile(file, '{"id":"a","prompt":"P","answer":"x"}\n{"id":"b","prompt":"Q","answer":{"columns":["a"],"unique_columns":["z"],"rows":[["1"]]}}\n');
    const before = swarm.requests.length;
    const r = await parl(['swarm', 'run', ...base(), '--tasks-file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^parl swarm run: --tasks-file .*bad\.jsonl line 2: answer\.unique_columns\[0\] must be one of the columns \(a\), got "z"$/)]);
    expect(swarm.requests.length).toBe(before);
  });

  it('eval: a scorer module that throws for one task leaves its episodes ungraded (not 0), names each after the closing line (exit code 1); the same command grades only those', async () => {
    // The run's scorer is used by qa-capital only (the other rows name their own); it throws while `broken` exists.
    const scorer = join(dir.path, 'throws-while-broken.mjs');
    const broken = join(dir.path, 'broken');
    await writeFile(scorer, `import { existsSync } from 'node:fs';\nexport default () => { if (existsSync(${JSON.stringify(broken)})) throw new Error('the grader is broken'); return 1; };\n`);
    await writeFile(broken, '');
    const out = join(dir.path, 'qa-eval.json');
    const report = join(dir.path, 'qa-eval.html');
    const args = ['swarm', 'eval', ...base(), '--tasks-file', join(EXAMPLES, 'qa-exact.csv'), '--scorer', `module:${scorer}`, '--targets', '0.5', '--out', out, '--report', report];
    const r = await parl(args);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^parl swarm eval: r_perf [\d.]+ \(swarm\) vs [\d.]+ \(single agent\) over 2 and 2 graded episodes \(1 and 1 failed\); critical steps to target 0\.5: /),
      expect.stringMatching(/^parl swarm eval: task qa-capital failed \(qa-capital\/swarm\): scorer module:.*throws-while-broken\.mjs on task qa-capital: it threw Error: the grader is broken$/),
      expect.stringMatching(/^parl swarm eval: task qa-capital failed \(qa-capital\/single\): scorer module:.*throws-while-broken\.mjs on task qa-capital: it threw Error: the grader is broken$/),
      'parl swarm eval: 2 episodes failed (not graded: left out of the evaluation\'s totals): run the same command again to run them again',
    ]);
    type Written = { swarm: { graded: number; failed: number }; failures: { rollout_id: string }[]; records: { swarm: { task_id: string }[] }; resumed: number };
    const first = JSON.parse(await readFile(out, 'utf8')) as Written;
    expect(first.swarm).toMatchObject({ graded: 2, failed: 1 });
    expect(first.failures.map((f) => f.rollout_id)).toEqual(['qa-capital/swarm', 'qa-capital/single']);
    expect(first.records.swarm.map((x) => x.task_id)).toEqual(['qa-boiling', 'qa-authors']);
    // The report says which episodes are not graded, and its per-task table shows no score (no 0) for them.
    const html = await readFile(report, 'utf8');
    expect(html).toMatch(/2 episodes failed and are not graded \(left out of every mean and curve\): qa-capital\/swarm \(scorer module:[^)]*\); qa-capital\/single/);
    expect(html).toContain('<tr><th>qa-capital</th><td>—</td><td class="num">—</td><td class="answer">—</td><td class="num">—</td><td class="answer">—</td><td class="num">—</td><td class="num">—</td><td>—</td><td>swarm episode failed: not graded; single-agent episode failed: not graded</td></tr>');

    // Mended: the same command runs only qa-capital's two episodes (the orchestrator is asked for nothing else).
    await rm(broken);
    const asked = swarm.requests.length;
    const again = await parl(args);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/^parl swarm eval: r_perf [\d.]+ \(swarm\) vs [\d.]+ \(single agent\); critical steps to target 0\.5: .* \(4 episodes resumed from .*qa-eval\.json\)\n$/);
    const prompts = swarm.requests.slice(asked).filter((q) => q.model === 'orch').map((q) => messageText(q.messages.find((m) => m.role === 'user')));
    expect(new Set(prompts)).toEqual(new Set(['What is the capital of Australia?']));
    const second = JSON.parse(await readFile(out, 'utf8')) as Written;
    expect(second).toMatchObject({ swarm: { graded: 3, failed: 0 }, failures: [], resumed: 4 });
    expect(second.records.swarm.map((x) => x.task_id)).toEqual(['qa-capital', 'qa-boiling', 'qa-authors']);
  });

  it('eval: a judge on loopback HTTP that fails for one task (HTTP 503 past its retries): that task is not graded, the other is; exit code 1', async () => {
    const flaky = await startChatEndpoint((request) => (messageText(request.messages.at(-1)).includes('Lunar Roving Vehicle') ? { status: 503, body: 'overloaded' } : judgeReply(request)));
    try {
      const r = await parl(['swarm', 'eval', ...base(), '--tasks-file', join(EXAMPLES, 'browsecomp-questions.jsonl'), '--judge-base-url', flaky.baseURL, '--judge-model', 'grader', '--targets', '0.5']);
      expect(r.code).toBe(1);
      const evaluation = JSON.parse(r.stdout) as { swarm: { graded: number; failed: number; r_perf: number }; records: { swarm: { task_id: string }[] } };
      // The graded task was judged correct: r_perf 1, not a mean with a made-up 0.
      expect(evaluation.swarm).toMatchObject({ graded: 1, failed: 1, r_perf: 1 });
      expect(evaluation.records.swarm.map((x) => x.task_id)).toEqual(['bc-analytical-engine']);
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^parl swarm eval: r_perf 1 \(swarm\) vs 1 \(single agent\) over 1 and 1 graded episodes \(1 and 1 failed\); /),
        expect.stringMatching(/^parl swarm eval: task bc-hadley-module failed \(bc-hadley-module\/swarm\): scorer judge on task bc-hadley-module: the judge judge\.chat\/grader gave no reply: .*HTTP 503/),
        expect.stringMatching(/^parl swarm eval: task bc-hadley-module failed \(bc-hadley-module\/single\): scorer judge on task bc-hadley-module: /),
        'parl swarm eval: 2 episodes failed (not graded: left out of the evaluation\'s totals): with --out FILE a rerun of the same command runs only the failed episodes',
      ]);
    } finally {
      await flaky.close();
    }
  });

  it('a scorer module that fails: one line per failed episode naming the task and the scorer, after the closing line of the others (exit code 1)', async () => {
    const scorer = join(dir.path, 'broken-scorer.mjs');
    await writeFile(scorer, 'export default () => 7;\n');
    const r = await parl(['swarm', 'run', ...base(), '--tasks-file', join(EXAMPLES, 'qa-exact.csv'), '--scorer', `module:${scorer}`]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^parl swarm run: 2 episodes; mean r_perf /),
      expect.stringMatching(/^parl swarm run: task qa-capital failed \(qa-capital\/rollout-0\): scorer module:.*broken-scorer\.mjs on task qa-capital: it returned r_perf 7: expected a number in \[0, 1\]$/),
      'parl swarm run: 1 episode failed (no line and no reward for it): with --out FILE a rerun of the same command runs only the failed episodes',
    ]);
  });
});
