import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Field, List, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { csvRow } from '@parl/io';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTaskFile } from '../src/tasks/task-file.js';
import { type TaskRow } from '../src/tasks/task-row.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('swarm-task-files');
});
afterAll(async () => {
  await dir.remove();
});

const EXAMPLES = fileURLToPath(new URL('../../../examples/tasks/', import.meta.url));

const ROWS: TaskRow[] = [
  { id: 'q1', prompt: 'Capital of Australia?', answer: 'Canberra', metadata: { set: 'geo', level: 1 } },
  { id: 'q2', prompt: 'Two primes below 5?', answer: ['2', '3'], scorer: 'includes' },
  {
    id: 'q3',
    prompt: 'Inner planets and radii',
    answer: { columns: ['planet', 'radius'], unique_columns: ['planet'], rows: [['Mercury', '2439.7'], ['Venus', '6051.8']], metrics: { radius: 'number:1%' } },
  },
];

async function write(name: string, bytes: string | Uint8Array): Promise<string> {
  const path = join(dir.path, name);
  await writeFile(path, bytes);
  return path;
}

const jsonText = (v: unknown): string | null => (v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));

/** The rows as a table: answers and metadata as JSON text (a string column), scorers empty when absent. */
function textTable(rows: readonly TaskRow[]): Table {
  return new Table({
    id: vectorFromArray(rows.map((r) => r.id), new Utf8()),
    prompt: vectorFromArray(rows.map((r) => r.prompt), new Utf8()),
    answer: vectorFromArray(rows.map((r) => jsonText(r.answer)), new Utf8()),
    scorer: vectorFromArray(rows.map((r) => r.scorer ?? null), new Utf8()),
    metadata: vectorFromArray(rows.map((r) => jsonText(r.metadata)), new Utf8()),
  });
}

async function errorOf(name: string, text: string, runScorer?: string): Promise<string> {
  const path = await write(name, text);
  const failure = await readTaskFile(path, runScorer).then(
    () => undefined,
    (err: unknown) => err as Error,
  );
  if (failure === undefined) throw new Error(`${name} was read without an error`);
  expect(failure.message.split('\n')).toHaveLength(1);
  return failure.message.replace(path, 'FILE');
}

describe('task files: the same rows from every format', () => {
  it('JSONL, a JSON array, CSV, Parquet, Arrow file and stream', async () => {
    const csv = csvRow(['id', 'prompt', 'answer', 'scorer', 'metadata']) + ROWS.map((r) => csvRow([r.id, r.prompt, jsonText(r.answer), r.scorer ?? '', jsonText(r.metadata) ?? ''])).join('');
    const parquetBytes = parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(textTable(ROWS), 'stream')));
    const files = [
      await write('t.jsonl', ROWS.map((r) => JSON.stringify(r)).join('\n')),
      await write('t.json', JSON.stringify(ROWS, null, 2)),
      await write('t.csv', csv),
      await write('t.parquet', parquetBytes),
      await write('t.arrow', tableToIPC(textTable(ROWS), 'file')),
      await write('t.arrows', tableToIPC(textTable(ROWS), 'stream')),
    ];
    for (const file of files) expect(await readTaskFile(file), file).toEqual(ROWS);
  });

  it('Parquet and Arrow list columns are lists of accepted answers', async () => {
    const table = new Table({
      id: vectorFromArray(['a', 'b'], new Utf8()),
      prompt: vectorFromArray(['P?', 'Q?'], new Utf8()),
      answer: vectorFromArray([['x', 'y'], ['z']], new List(new Field('item', new Utf8(), true))),
    });
    const path = await write('lists.parquet', parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(table, 'stream'))));
    expect(await readTaskFile(path)).toEqual([
      { id: 'a', prompt: 'P?', answer: ['x', 'y'] },
      { id: 'b', prompt: 'Q?', answer: ['z'] },
    ]);
  });

  it('reads the examples: WideSearch-shaped tables, BrowseComp-shaped questions for the judge, a QA CSV', async () => {
    const wide = await readTaskFile(join(EXAMPLES, 'widesearch-tables.jsonl'));
    expect(wide.map((r) => r.id)).toEqual(['ws-inner-planets', 'ws-apollo-landings']);
    expect(wide[0]?.answer).toMatchObject({ unique_columns: ['planet'], metrics: { mean_radius_km: 'number:1%' } });
    const browse = await readTaskFile(join(EXAMPLES, 'browsecomp-questions.jsonl'));
    expect(browse.map((r) => r.scorer)).toEqual(['judge', 'judge']);
    const qa = await readTaskFile(join(EXAMPLES, 'qa-exact.csv'));
    expect(qa.map((r) => [r.id, r.scorer, r.metadata])).toEqual([
      ['qa-capital', undefined, { set: 'geography' }],
      ['qa-boiling', 'number:0.5', undefined],
      ['qa-authors', 'includes', undefined],
    ]);
    expect(qa[2]?.answer).toHaveLength(8);
  });
});

describe('task files: a bad row is one line naming the file, the line or row, the field and what was expected', () => {
  const good = JSON.stringify(ROWS[0]);
  const cases: [string, string, RegExp][] = [
    ['missing-id.jsonl', `${good}\n{"prompt":"P"}`, /^--tasks-file FILE line 2: id must be a non-empty string, got undefined \(missing\)$/],
    ['empty-prompt.jsonl', `${good}\n{"id":"b","prompt":"  ","answer":"x"}`, /^--tasks-file FILE line 2: prompt must be a non-empty string, got "  "$/],
    ['answer-number.jsonl', '{"id":"a","prompt":"P","answer":42}', /^--tasks-file FILE line 1: answer must be a string, a list of strings, or a table .*got 42$/],
    ['answer-list.jsonl', '{"id":"a","prompt":"P","answer":["x",3]}', /^--tasks-file FILE line 1: answer\[1\] must be a string, got 3$/],
    ['unique-column.jsonl', '{"id":"a","prompt":"P","answer":{"columns":["a","b"],"unique_columns":["c"],"rows":[["1","2"]]}}', /line 1: answer\.unique_columns\[0\] must be one of the columns \(a, b\), got "c"$/],
    ['row-length.jsonl', '{"id":"a","prompt":"P","answer":{"columns":["a","b"],"unique_columns":["a"],"rows":[["1","2"],["3"]]}}', /line 1: answer\.rows\[1\] must be a list of 2 cells \(one per column\)/],
    ['metric.jsonl', '{"id":"a","prompt":"P","answer":{"columns":["a","b"],"unique_columns":["a"],"rows":[["1","2"]],"metrics":{"b":"near"}}}', /line 1: answer\.metrics\.b must be one of exact, number:TOL \(TOL absolute or TOL%\), date:DAYS or judge, got "near"$/],
    ['scorer.jsonl', '{"id":"a","prompt":"P","answer":"x","scorer":"fuzzy"}', /line 1: scorer must be one of exact, includes, .*got "fuzzy"$/],
    ['unknown-field.jsonl', '{"id":"a","prompt":"P","answer":"x","target":"y"}', /line 1: target must be absent: a task row's fields are id, prompt, answer, scorer, metadata, got "y"$/],
    ['misspelt-field.jsonl', '{"id":"a","prompt":"P","answer":"x","scorers":"exact"}', /line 1: scorers must be absent: a task row's fields are id, prompt, answer, scorer, metadata \(did you mean scorer\?\), got "exact"$/],
    ['metadata.jsonl', '{"id":"a","prompt":"P","answer":"x","metadata":[1]}', /line 1: metadata must be an object \(JSON text in CSV\), got \[1\]$/],
    ['table-for-exact.jsonl', '{"id":"a","prompt":"P","answer":{"columns":["a"],"unique_columns":["a"],"rows":[["1"]]},"scorer":"exact"}', /line 1: answer must be a string or a list of strings for the scorer exact/],
    ['no-answer.jsonl', '{"id":"a","prompt":"P"}', /line 1: answer must be a string or a list of strings for the scorer exact, got undefined \(missing\)$/],
    ['not-json.jsonl', `${good}\n{"id": "b",`, /^--tasks-file FILE line 2: /],
    ['not-object.json', '[1]', /^--tasks-file FILE record 1: row must be an object with id, prompt, answer, scorer, metadata, got 1$/],
    ['bad-json-cell.csv', 'id,prompt,answer,metadata\na,P,x,"{not json"\n', /^--tasks-file FILE line 2: metadata must be an object \(JSON text in CSV\), got "\{not json"$/],
    ['ragged.csv', 'id,prompt,answer\na,P,x\nb,Q\n', /^--tasks-file FILE line 3: CSV must be CSV with a header line/],
    ['empty.jsonl', '\n', /^--tasks-file must be a file with at least one task row, got "FILE"$/],
  ];
  for (const [name, text, expected] of cases) {
    it(name, async () => {
      expect(await errorOf(name, text)).toMatch(expected);
    });
  }

  it('an id given twice names both places', async () => {
    expect(await errorOf('dup.jsonl', `${JSON.stringify(ROWS[0])}\n${JSON.stringify(ROWS[1])}\n${JSON.stringify({ ...ROWS[1], id: 'q1' })}`)).toBe(
      '--tasks-file FILE line 3: id must be unique in the file (line 1 has it too), got "q1"',
    );
  });

  it('the run\'s --scorer is checked against every row\'s answer', async () => {
    expect(await errorOf('run-scorer.jsonl', `${JSON.stringify(ROWS[0])}\n${JSON.stringify(ROWS[2])}`, 'number:1')).toMatch(
      /^--tasks-file FILE line 2: answer must be a string or a list of strings for the scorer number:1/,
    );
  });
});
