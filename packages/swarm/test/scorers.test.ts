import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { messageText, startChatEndpoint, type ChatReply } from '@parl/test-support/chat-endpoint';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSuite, SwarmScoreError, type ScoredTask } from '../src/index.js';
import { fileTasks } from '../src/tasks/scored-tasks.js';
import { isAnswerTable, type AnswerTable } from '../src/scoring/accepted-answer.js';
import { judgeEndpoint } from '../src/jobs/judge-endpoint.js';
import { makeScorer } from '../src/scoring/scorer-registry.js';
import { normaliseAnswer } from '../src/scoring/normalise.js';
import { parseScorerSpec } from '../src/scoring/scorer-spec.js';
import { readTaskFile } from '../src/tasks/task-file.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('swarm-scorers');
});
afterAll(async () => {
  await dir.remove();
});

const FAST = { attempts: 3, baseDelayMs: 1, timeoutMs: 10_000 };

async function score(name: string, answer: string, task: Partial<ScoredTask>, judge?: Parameters<typeof makeScorer>[1]['judge']) {
  const scorer = await makeScorer(name, { judge });
  return scorer.score(answer, { id: 't1', prompt: 'Q?', ...task });
}

describe('scorer names', () => {
  it('checks each name and says what the scorers are', () => {
    expect(parseScorerSpec('number:2%')).toEqual({ name: 'number:2%', kind: 'number', argument: '2%' });
    expect(() => parseScorerSpec('fuzzy')).toThrow(/^--scorer must be one of exact, includes, regex:PATTERN, number:TOL .*got "fuzzy"$/);
    expect(() => parseScorerSpec('regex:(')).toThrow(/--scorer must be a regular expression RE2 matches in linear time/);
    expect(() => parseScorerSpec('number:abc')).toThrow(/number:TOL with TOL a number ≥ 0/);
    expect(() => parseScorerSpec('exact:x')).toThrow(/exact with no argument/);
    expect(() => parseScorerSpec('module:')).toThrow(/module:… with its argument/);
  });
});

describe('exact, includes, regex, number', () => {
  it('exact compares normalised answers: case, whitespace, surrounding punctuation and articles', async () => {
    expect(normaliseAnswer('  The  Eiffel\tTower. ')).toBe('eiffel tower');
    expect(await score('exact', 'the eiffel tower!', { answer: 'Eiffel Tower' })).toEqual({ scorer: 'exact', r_perf: 1, matched: 'Eiffel Tower' });
    expect(await score('exact', 'Eiffel Tower, Paris', { answer: 'Eiffel Tower' })).toEqual({ scorer: 'exact', r_perf: 0 });
    expect((await score('exact', 'Lyon', { answer: ['Paris', 'Lyon'] })).r_perf).toBe(1);
  });

  it('includes finds a normalised accepted answer inside the answer', async () => {
    expect((await score('includes', 'I think it is the Eiffel Tower, in Paris.', { answer: 'eiffel tower' })).r_perf).toBe(1);
    expect((await score('includes', 'The Louvre', { answer: ['eiffel tower', 'notre dame'] })).r_perf).toBe(0);
  });

  it('regex matches the pattern against the raw answer', async () => {
    expect(await score('regex:\\b19[0-9]{2}\\b', 'founded in 1923.', {})).toEqual({ scorer: 'regex:\\b19[0-9]{2}\\b', r_perf: 1, matched: '1923' });
    expect((await score('regex:^yes$', 'Yes', {})).r_perf).toBe(0);
  });

  it('regex refuses a pattern that needs backtracking when it is checked, as an input error', () => {
    expect(() => parseScorerSpec('regex:(a)\\1')).toThrow(expect.objectContaining({ name: 'ParlInputError', code: 'PARL_ERR_INVALID_VALUE', message: expect.stringMatching(/^--scorer must be a regular expression RE2 matches in linear time, with no back-reference or lookaround \(.*\\1.*\), got "regex:\(a\)\\\\1"$/) }));
    expect(() => parseScorerSpec('regex:foo(?=bar)', 'scorer', 'tasks.jsonl line 3')).toThrow(/^tasks\.jsonl line 3: scorer must be a regular expression RE2 matches in linear time.*\(\?=/);
  });

  it('regex matches in linear time: ^(a+)+$ on 40 a\'s and a b returns at once (a backtracking engine would run for days)', async () => {
    expect((await score('regex:^(a+)+$', `${'a'.repeat(40)}b`, {})).r_perf).toBe(0);
    expect((await score('regex:^(a+)+$', 'a'.repeat(40), {})).r_perf).toBe(1);
  });

  it('number takes the last number of the answer, within an absolute or relative tolerance', async () => {
    expect(await score('number:0.5', 'First 3, then about 1,234.4 people', { answer: '1234' })).toMatchObject({ r_perf: 1, number: 1234.4 });
    expect((await score('number:0.5', 'about 1,235 people', { answer: '1234' })).r_perf).toBe(0);
    expect((await score('number:1%', '$101.9 million', { answer: '101' })).r_perf).toBe(1);
    expect((await score('number:1%', '$102.1 million', { answer: '101' })).r_perf).toBe(0);
    expect(await score('number:1', 'no idea', { answer: '3' })).toEqual({ scorer: 'number:1', r_perf: 0, reason: 'no number in the answer' });
  });
});

const CITIES: AnswerTable = {
  columns: ['city', 'country', 'population', 'founded'],
  unique_columns: ['city', 'country'],
  rows: [
    ['Lyon', 'France', '522250', '0043-01-01'],
    ['Porto', 'Portugal', '231800', '0300-06-01'],
    ['Graz', 'Austria', '291072', '1128-01-01'],
  ],
  metrics: { population: 'number:1%', founded: 'date:400' },
};

describe('table (WideSearch\'s way)', () => {
  it('a perfect Markdown table, columns in another order, is success with F1 1', async () => {
    const answer = [
      'Here is the table:',
      '| Country | City | Population | Founded |',
      '|---|---|---:|---|',
      '| France | **Lyon** | 523,000 | 0043-01-01 |',
      '| Portugal | Porto | 231800 | 0300-01-01 |',
      '| Austria | graz | 290000 | 1128-03-01 |',
    ].join('\n');
    expect(await score('table', answer, { answer: CITIES })).toEqual({
      scorer: 'table',
      r_perf: 1,
      success: true,
      item_precision: 1,
      item_recall: 1,
      item_f1: 1,
      row_precision: 1,
      row_recall: 1,
      row_f1: 1,
      rows_predicted: 3,
      rows_matched: 3,
      rows_gold: 3,
    });
  });

  it('a number outside its tolerance, a missing row and an extra row: item and row precision, recall and F1', async () => {
    // Positional `a | b | c | d` lines; Porto's population is 5 % off; Graz is missing; Oslo is not in the table.
    const answer = 'Lyon | France | 522250 | 0043-01-01\nPorto | Portugal | 220000 | 0300-06-01\nOslo | Norway | 700000 | 1048-01-01\nLyon | France | 1 | 2000-01-01\nnot | a row';
    const s = await score('table', answer, { answer: CITIES });
    // Items: 2 per row (population, founded). Predicted 3 rows (the second Lyon dropped) = 6 items, 3 right; gold 6 items.
    expect(s).toMatchObject({ success: false, item_precision: 0.5, item_recall: 0.5, item_f1: 0.5, r_perf: 0.5, rows_predicted: 3, rows_matched: 2, lines_skipped: 1 });
    // Rows: 1 right (Lyon) of 3 predicted and 3 gold.
    expect(s['row_precision']).toBeCloseTo(1 / 3, 12);
    expect(s['row_recall']).toBeCloseTo(1 / 3, 12);
  });

  it('no table in the answer scores 0', async () => {
    expect(await score('table', 'I could not find it.', { answer: CITIES })).toMatchObject({ r_perf: 0, success: false, item_f1: 0, row_f1: 0, rows_predicted: 0 });
  });
});

describe('module:PATH', () => {
  it('takes a number or {r_perf, …} from the default export, async allowed', async () => {
    const path = join(dir.path, 'len.mjs');
    await writeFile(path, 'export default async (answer, task) => ({ r_perf: answer.length >= 4 ? 1 : 0.5, id: task.id, metadata: task.metadata });\n');
    expect(await score(`module:${path}`, 'long answer', { metadata: { level: 2 } })).toEqual({ scorer: `module:${path}`, r_perf: 1, id: 't1', metadata: { level: 2 } });
    const plain = join(dir.path, 'plain.mjs');
    await writeFile(plain, 'export default (answer) => (answer === "yes" ? 1 : 0);\n');
    expect(await score(`module:${plain}`, 'yes', {})).toEqual({ scorer: `module:${plain}`, r_perf: 1 });
  });

  it('a value outside [0, 1], a non-number or a throw is a SwarmScoreError naming the scorer and the task', async () => {
    const cases = [
      ['big.mjs', 'export default () => 1.5;', /^scorer module:.*big\.mjs on task t1: it returned r_perf 1\.5: expected a number in \[0, 1\]$/],
      ['text.mjs', 'export default () => "1";', /it returned the string "1": expected a number in \[0, 1\] or \{r_perf, …\}$/],
      ['nan.mjs', 'export default () => ({ r_perf: NaN });', /an object whose r_perf is NaN/],
      ['throws.mjs', 'export default async () => { throw new TypeError("no grader"); };', /it threw TypeError: no grader$/],
    ] as const;
    for (const [file, source, message] of cases) {
      const path = join(dir.path, file);
      await writeFile(path, `${source}\n`);
      const failure = await Promise.resolve(score(`module:${path}`, 'x', {})).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(SwarmScoreError);
      expect((failure as Error).message).toMatch(message);
    }
  });

  it('a module that does not load, or exports no function, is an input error naming --scorer before any episode', async () => {
    const broken = join(dir.path, 'broken.mjs');
    await writeFile(broken, 'export default (;\n');
    await expect(makeScorer(`module:${broken}`, {})).rejects.toThrow(/^--scorer must be a module that loads \(it failed: /);
    const noFn = join(dir.path, 'nofn.mjs');
    await writeFile(noFn, 'export default 3;\n');
    await expect(makeScorer(`module:${noFn}`, {})).rejects.toThrow(/--scorer must be a module whose default export is a function/);
  });
});

describe('judge (an LLM on an OpenAI-compatible endpoint, BrowseComp\'s grading shape)', () => {
  const reply = (correct: string) =>
    `extracted_final_answer: Ada Lovelace\n\nreasoning: The response names the same person.\n\ncorrect: ${correct}\n\nconfidence: 85%`;

  it('sends the grading prompt and keeps the verdict, the reply and its token usage in score', async () => {
    const endpoint = await startChatEndpoint(() => ({ text: reply('yes'), usage: { prompt: 300, completion: 40 } }));
    try {
      const judge = judgeEndpoint(endpoint.baseURL, 'grader', {}, FAST);
      const s = await score('judge', 'It was Ada Lovelace.', { prompt: 'Who wrote the first program?', answer: 'Ada Lovelace' }, judge);
      expect(s).toEqual({
        scorer: 'judge',
        r_perf: 1,
        model: 'judge.chat/grader',
        extracted_final_answer: 'Ada Lovelace',
        reasoning: 'The response names the same person.',
        correct: 'yes',
        confidence: 85,
        reply: reply('yes'),
        usage: { input_tokens: 300, output_tokens: 40 },
        attempts: 1,
      });
      const prompt = messageText(endpoint.requests[0]?.messages.find((m) => m.role === 'user'));
      expect(prompt).toContain('[question]: Who wrote the first program?');
      expect(prompt).toContain('[response]: It was Ada Lovelace.');
      expect(prompt).toContain('[correct_answer]: Ada Lovelace');
      expect(prompt).toMatch(/correct: Answer 'yes' if extracted_final_answer matches/);
    } finally {
      await endpoint.close();
    }
  });

  it('correct: no (Markdown bold around the keys) is r_perf 0', async () => {
    const endpoint = await startChatEndpoint(() => ({ text: '**extracted_final_answer:** Babbage\n**reasoning:** Another person.\n**correct:** no\n**confidence:** 100' }));
    try {
      const s = await score('judge', 'Babbage', { answer: 'Ada Lovelace' }, judgeEndpoint(endpoint.baseURL, 'grader', {}, FAST));
      expect(s).toMatchObject({ r_perf: 0, correct: 'no', extracted_final_answer: 'Babbage', confidence: 100 });
    } finally {
      await endpoint.close();
    }
  });

  it('a judge that answers nonsense is asked again, then r_perf 0 with score.error; the usage of every attempt is kept', async () => {
    const endpoint = await startChatEndpoint(() => ({ text: 'I like turtles. correct? maybe', usage: { prompt: 10, completion: 2 } }));
    try {
      const s = await score('judge', 'x', { answer: 'y' }, judgeEndpoint(endpoint.baseURL, 'grader', {}, FAST));
      expect(s).toMatchObject({ r_perf: 0, attempts: 3, reply: 'I like turtles. correct? maybe', usage: { input_tokens: 30, output_tokens: 6 } });
      expect(s['error']).toBe('the judge\'s reply did not parse (no "correct: yes|no") after 3 attempts');
      expect(endpoint.requests).toHaveLength(3);
    } finally {
      await endpoint.close();
    }
  });

  it('provider failures are retried like any model call (HTTP 503, then an answer)', async () => {
    let n = 0;
    const endpoint = await startChatEndpoint((): ChatReply => (++n === 1 ? { status: 503 } : { text: reply('yes') }));
    try {
      const s = await score('judge', 'Ada', { answer: 'Ada Lovelace' }, judgeEndpoint(endpoint.baseURL, 'grader', {}, FAST));
      expect(s).toMatchObject({ r_perf: 1, attempts: 1 });
      expect(endpoint.requests).toHaveLength(2);
    } finally {
      await endpoint.close();
    }
  });

  it('a judge that stays down is a SwarmScoreError naming the task and the judge (an error of the episode), never r_perf 0', async () => {
    const endpoint = await startChatEndpoint(() => ({ status: 500 }));
    try {
      const grading = score('judge', 'Ada', { answer: 'Ada Lovelace' }, judgeEndpoint(endpoint.baseURL, 'grader', {}, FAST));
      await expect(grading).rejects.toBeInstanceOf(SwarmScoreError);
      await expect(grading).rejects.toThrow(/^scorer judge on task t1: the judge judge\.chat\/grader gave no reply: model judge\.chat\/grader failed after 3 attempts: HTTP 500/);
    } finally {
      await endpoint.close();
    }
  });

  it('a table\'s judge column asks the judge for the cells that differ', async () => {
    const endpoint = await startChatEndpoint((req) => ({ text: reply(messageText(req.messages.at(-1)).includes('[response]: NYC') ? 'yes' : 'no') }));
    try {
      const table: AnswerTable = { columns: ['id', 'city'], unique_columns: ['id'], rows: [['1', 'New York City'], ['2', 'Boston']], metrics: { city: 'judge' } };
      const s = await score('table', '1 | NYC\n2 | Chicago', { answer: table }, judgeEndpoint(endpoint.baseURL, 'grader', {}, FAST));
      expect(s).toMatchObject({ item_f1: 0.5, row_f1: 0.5, success: false, judge: { calls: 2, input_tokens: 22, output_tokens: 14, ungraded: 0 } });
      expect(endpoint.requests).toHaveLength(2);
    } finally {
      await endpoint.close();
    }
  });

  it('a table\'s judge column whose judge stays down fails the episode (SwarmScoreError naming the task), never a cell graded wrong', async () => {
    const endpoint = await startChatEndpoint(() => ({ status: 503 }));
    try {
      const table: AnswerTable = { columns: ['id', 'city'], unique_columns: ['id'], rows: [['1', 'New York City']], metrics: { city: 'judge' } };
      const grading = score('table', '1 | NYC', { answer: table }, judgeEndpoint(endpoint.baseURL, 'grader', {}, FAST));
      await expect(grading).rejects.toBeInstanceOf(SwarmScoreError);
      await expect(grading).rejects.toThrow(/^scorer judge on task t1: the judge judge\.chat\/grader gave no reply: .*HTTP 503/);
    } finally {
      await endpoint.close();
    }
  });

  it('judge without a judge is an input error naming --judge-model', async () => {
    await expect(makeScorer('judge', {})).rejects.toThrow(/^--judge-model must be given/);
  });
});

describe('one table scorer', () => {
  it('a built-in suite\'s task and a task file\'s row with the same answer table give the same score to the same answer', async () => {
    const [task] = generateSuite('wide', { tasks: 1, seed: 3, entities: 3, attributes: 2 });
    if (task === undefined || !isAnswerTable(task.answer)) throw new Error('a wide task has an answer table');
    const rows = task.answer.rows;
    // Spelled as a model may: a Markdown table, an article, surrounding punctuation, one value wrong, one row missing.
    const [first, second] = rows;
    const answer = [
      '| entity | attribute | value |',
      '| --- | --- | --- |',
      `| The ${first?.[0]} | ${first?.[1]}. | "${first?.[2]}" |`,
      `| ${second?.[0]} | ${second?.[1]} | not ${second?.[2]} |`,
      ...rows.slice(3).map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
    const path = join(dir.path, 'same-table.jsonl');
    await writeFile(path, `${JSON.stringify({ id: task.id, prompt: task.prompt, answer: task.answer })}\n`);
    const [row] = await fileTasks(await readTaskFile(path, undefined), undefined, {});
    const builtIn = await task.score(answer);
    const fromFile = await row?.score(answer);
    expect(fromFile).toEqual(builtIn);
    expect(builtIn).toMatchObject({ scorer: 'table', item_f1: expect.closeTo((2 * (4 / 5) * (4 / 6)) / (4 / 5 + 4 / 6), 9) });
    // One path: the package has no second item F1 that normalises its own way (answer-lines' itemF1 was one).
    expect(Object.keys(await import('../src/index.js'))).not.toContain('itemF1');
  });
});
