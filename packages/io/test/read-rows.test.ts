import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Field, Float64, List, Struct, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRows, type SourcedRow } from '../src/index.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('io-read-rows');
});
afterAll(async () => {
  await dir.remove();
});

async function rowsOf(name: string, bytes: string | Uint8Array): Promise<SourcedRow[]> {
  const path = join(dir.path, name);
  await writeFile(path, bytes);
  const rows: SourcedRow[] = [];
  for await (const row of readRows(path, '--tasks-file')) rows.push(row);
  return rows;
}

async function errorOf(name: string, bytes: string | Uint8Array): Promise<string> {
  try {
    await rowsOf(name, bytes);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('no error');
}

const table = (): Table =>
  new Table({
    id: vectorFromArray(['a', 'b'], new Utf8()),
    n: vectorFromArray([1, 2.5], new Float64()),
    answer: vectorFromArray([['x', 'y'], ['z']], new List(new Field('item', new Utf8(), true))),
    meta: vectorFromArray([{ k: 'v' }, { k: null }], new Struct([new Field('k', new Utf8(), true)])),
  });
const expected = [
  { id: 'a', n: 1, answer: ['x', 'y'], meta: { k: 'v' } },
  { id: 'b', n: 2.5, answer: ['z'], meta: { k: null } },
];

describe('readRows', () => {
  it('reads JSONL by line and a JSON array by record', async () => {
    const jsonl = await rowsOf('t.jsonl', '{"id":"a"}\n\n{"id":"b"}\n');
    expect(jsonl).toEqual([
      { value: { id: 'a' }, location: 'line 1', format: 'jsonl' },
      { value: { id: 'b' }, location: 'line 3', format: 'jsonl' },
    ]);
    const json = await rowsOf('t.json', '[\n {"id":"a"},\n {"id":"b"}\n]');
    expect(json.map((r) => [r.value, r.location, r.format])).toEqual([
      [{ id: 'a' }, 'record 1', 'json'],
      [{ id: 'b' }, 'record 2', 'json'],
    ]);
  });

  it('reads CSV with a header, quoted cells across lines, each row at the line it starts on', async () => {
    const rows = await rowsOf('t.csv', 'id,answer\na,"[""x"",""y""]"\nb,"two\nlines"\nc,plain\n');
    expect(rows).toEqual([
      { value: { id: 'a', answer: '["x","y"]' }, location: 'line 2', format: 'csv' },
      { value: { id: 'b', answer: 'two\nlines' }, location: 'line 3', format: 'csv' },
      { value: { id: 'c', answer: 'plain' }, location: 'line 5', format: 'csv' },
    ]);
  });

  it('counts a quoted CRLF as one line break, as an editor does; empty lines and multi-byte text before a row count right', async () => {
    const rows = await rowsOf('crlf.csv', 'id,prompt\r\nä,"x\r\ny"\r\n\r\nb,"p\r\nq\r\nr"\r\nc,"ü€"\r\nd,z\r\n');
    expect(rows.map((r) => [(r.value as { id: string }).id, r.location])).toEqual([
      ['ä', 'line 2'],
      ['b', 'line 5'],
      ['c', 'line 8'],
      ['d', 'line 9'],
    ]);
  });

  it('reads Parquet and Arrow (file and stream) rows as plain objects: lists as arrays, structs as objects', async () => {
    const parquetBytes = parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(table(), 'stream')));
    for (const [name, bytes, format] of [
      ['t.parquet', parquetBytes, 'parquet'],
      ['t.arrow', tableToIPC(table(), 'file'), 'arrow'],
      ['t.arrows', tableToIPC(table(), 'stream'), 'arrows'],
    ] as const) {
      const rows = await rowsOf(name, bytes);
      expect(rows.map((r) => r.value)).toEqual(expected);
      expect(rows.map((r) => [r.location, r.format])).toEqual([
        ['row 1', format],
        ['row 2', format],
      ]);
    }
  });

  it('names the file, the flag and the line or row of what does not parse', async () => {
    expect(await errorOf('bad.jsonl', '{"id":"a"}\n{"id": \n')).toMatch(/^--tasks-file .*bad\.jsonl line 2: /);
    expect(await errorOf('ragged.csv', 'id,prompt\na,b\nc\n')).toMatch(/^--tasks-file .*ragged\.csv line 3: CSV must be CSV with a header line/);
    expect(await errorOf('bad.parquet', 'not parquet at all')).toMatch(/^--tasks-file .*bad\.parquet \(Parquet\): /);
  });

  it('a missing file is one line naming the flag', async () => {
    const rows = readRows(join(dir.path, 'nope.csv'), '--tasks-file');
    await expect(rows.next()).rejects.toThrow(/^cannot read --tasks-file .*nope\.csv: no such file or directory$/);
  });
});
