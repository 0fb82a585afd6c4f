/**
 * `parl reward` / `parl critical-steps` on Parquet and Arrow IPC: the computed columns hold the
 * very numbers the JSONL path writes for the same records, through the kernels or row by row;
 * other columns pass through; a bad value is one line naming the row and the column; and the
 * JSONL path never loads the columnar libraries.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bool, Field, Float64, List, Struct, Table, Utf8, makeVector, tableFromIPC, tableToIPC, vectorFromArray, type RecordBatch } from 'apache-arrow';
import fc from 'fast-check';
import * as parquet from 'parquet-wasm';
import { describe, expect, it } from 'vitest';
import { rowRecord } from '../../io/src/internal/columnar/computed-columns.js';
import { runBin } from './support/bin.js';
import { parl } from './support/memory-io.js';
import { useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');
const RECORD_LOADS = fileURLToPath(new URL('./support/record-loads.mjs', import.meta.url));

const steps = fc.oneof(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 50, noNaN: true, noDefaultInfinity: true }));
/** Records of the kernels' shape: r_perf, counts, numeric stages. */
const kernelRecord = fc.record({
  id: fc.string({ maxLength: 6 }),
  training_step: fc.integer({ min: 0, max: 20_000 }),
  num_subagents: fc.integer({ min: 0, max: 150 }),
  r_perf: fc.double({ min: -1, max: 2, noNaN: true, noDefaultInfinity: true }),
  stages: fc.array(fc.record({ main_steps: steps, sub_steps: fc.array(steps, { maxLength: 6 }) }), { maxLength: 5 }),
});

const stageType = new Struct([new Field('main_steps', new Float64(), false), new Field('sub_steps', new List(new Field('item', new Float64(), false)), false)]);

function tableOf(records: readonly Record<string, unknown>[], batchRows = 50): Table {
  const batches: RecordBatch[] = [];
  for (let from = 0; from < records.length; from += batchRows) {
    const part = records.slice(from, from + batchRows);
    batches.push(
      ...new Table({
        id: vectorFromArray(part.map((r) => r['id'] as string), new Utf8()),
        training_step: makeVector(BigInt64Array.from(part, (r) => BigInt(r['training_step'] as number))),
        num_subagents: makeVector(Float64Array.from(part, (r) => r['num_subagents'] as number)),
        r_perf: makeVector(Float64Array.from(part, (r) => r['r_perf'] as number)),
        stages: vectorFromArray(part.map((r) => r['stages']), new List(new Field('item', stageType, false))),
      }).batches,
    );
  }
  return new Table(batches);
}

function writeColumnar(path: string, table: Table): void {
  if (path.endsWith('.parquet')) {
    const props = new parquet.WriterPropertiesBuilder().setMaxRowGroupSize(40).build();
    writeFileSync(path, parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(table, 'stream')), props));
  } else writeFileSync(path, tableToIPC(table, path.endsWith('.arrows') ? 'stream' : 'file'));
}

function readColumnar(path: string): Table {
  const bytes = readFileSync(path);
  if (path.endsWith('.parquet')) return tableFromIPC(parquet.readParquet(bytes).intoIPCStream());
  return tableFromIPC(bytes);
}

function rowsOf(table: Table): Record<string, unknown>[] {
  return table.batches.flatMap((b) => Array.from({ length: b.numRows }, (_, i) => rowRecord(b, i)));
}

const COMMANDS = [['reward', '--lambda1', 'linear:0.3:0:20000'], ['critical-steps']] as const;

describe('columnar in and out', () => {
  for (const ext of ['parquet', 'arrow', 'arrows']) {
    for (const command of COMMANDS) {
      it(`parl ${command[0]} .${ext}: the JSONL path's numbers, the other columns kept`, { timeout: 120_000 }, async () => {
        const records = fc.sample(kernelRecord, { numRuns: 230, seed: ext.length });
        const dir = tempDir();
        const input = join(dir, `in.${ext}`);
        const output = join(dir, `out.${ext === 'parquet' ? 'arrow' : 'parquet'}`);
        writeColumnar(input, tableOf(records));
        const r = await parl([...command, '--in', input, '--out', output]);
        expect(r.code, r.stderr).toBe(0);
        const jsonl = await parl([...command], `${records.map((x) => JSON.stringify(x)).join('\n')}\n`);
        const expected = jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
        const got = rowsOf(readColumnar(output));
        expect(got).toHaveLength(records.length);
        for (const [i, row] of got.entries()) {
          expect(Object.keys(row)).toEqual(Object.keys(expected[i] ?? {}).filter((k) => k !== 'stages' || row['stages'] !== undefined));
          for (const [key, value] of Object.entries(expected[i] ?? {})) {
            // As JSON writes them (-0 as 0): the JSONL side went through JSON.
            if (typeof value === 'number') expect(JSON.stringify(row[key]), `row ${i + 1} ${key}`).toBe(JSON.stringify(value));
          }
        }
      });
    }
  }

  it('labels row by row what the kernels do not take (success and quality, sub-agents with finished), with the same numbers', async () => {
    const records = [
      { id: 'a', success: true, quality: 0.25, num_subagents: 3, stages: [{ main_steps: 1, sub_steps: [{ steps: 2, finished: true }, { steps: 5, finished: false }] }] },
      { id: 'b', success: false, quality: 0.5, num_subagents: 0, stages: [{ main_steps: 2, sub_steps: [{ steps: 1, finished: true }] }] },
    ];
    const sub = new Struct([new Field('steps', new Float64(), false), new Field('finished', new Bool(), true)]);
    const stage = new Struct([new Field('main_steps', new Float64(), false), new Field('sub_steps', new List(new Field('item', sub, false)), false)]);
    const table = new Table({
      id: vectorFromArray(records.map((r) => r.id), new Utf8()),
      success: vectorFromArray(records.map((r) => r.success), new Bool()),
      quality: makeVector(Float64Array.from(records, (r) => r.quality)),
      num_subagents: makeVector(Float64Array.from(records, (r) => r.num_subagents)),
      stages: vectorFromArray(records.map((r) => r.stages), new List(new Field('item', stage, false))),
    });
    const dir = tempDir();
    writeColumnar(join(dir, 'in.parquet'), table);
    const r = await parl(['reward', '--in', join(dir, 'in.parquet'), '--out', join(dir, 'out.arrows')]);
    expect(r.code, r.stderr).toBe(0);
    const jsonl = await parl(['reward'], `${records.map((x) => JSON.stringify(x)).join('\n')}\n`);
    const expected = jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rowsOf(readColumnar(join(dir, 'out.arrows')))).toEqual(expected);
  });

  it('names the row and the column of a bad value in one line, and writes nothing', async () => {
    const dir = tempDir();
    const table = new Table({ id: vectorFromArray(['a', 'b', 'c'], new Utf8()), r_perf: vectorFromArray(['0.5', '0.7', 'high'], new Utf8()) });
    writeColumnar(join(dir, 'bad.parquet'), table);
    const r = await parl(['reward', '--in', join(dir, 'bad.parquet'), '--out', join(dir, 'out.parquet')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('parl reward: row 1: r_perf must be a finite number, got "0.5"\n');
    const steps = new Table({ stages: vectorFromArray([[{ main_steps: 1, sub_steps: [2] }], [{ main_steps: -3, sub_steps: [] }]], new List(new Field('item', stageType, false))) });
    writeColumnar(join(dir, 'neg.arrow'), steps);
    const neg = await parl(['critical-steps', '--in', join(dir, 'neg.arrow'), '--out', join(dir, 'out.arrow')]);
    expect(neg.code).toBe(2);
    expect(neg.stderr).toBe('parl critical-steps: row 2: stages[0].main_steps must be a finite number ≥ 0, got -3\n');
  });

  it('asks for a columnar --out, and refuses --on-error skip and a columnar --out from JSONL', async () => {
    const dir = tempDir();
    writeColumnar(join(dir, 'in.arrow'), tableOf(fc.sample(kernelRecord, { numRuns: 3, seed: 1 })));
    const noOut = await parl(['reward', '--in', join(dir, 'in.arrow')]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/^parl reward: a arrow input is written as Parquet or Arrow: give --out FILE\.parquet/);
    const skip = await parl(['reward', '--in', join(dir, 'in.arrow'), '--out', join(dir, 'o.arrow'), '--on-error', 'skip']);
    expect(skip.code).toBe(2);
    const fromJsonl = await parl(['reward', '--out', join(dir, 'o.parquet')], '{"r_perf":1}\n');
    expect(fromJsonl.code).toBe(2);
    expect(fromJsonl.stderr).toMatch(/written only from a Parquet or Arrow input/);
  });

  it('never loads apache-arrow or parquet-wasm for JSONL or --help', () => {
    const dir = tempDir();
    const loads = join(dir, 'loads.txt');
    writeFileSync(join(dir, 'in.jsonl'), '{"r_perf":0.5}\n');
    for (const args of [['reward', '--help'], ['reward', '--in', join(dir, 'in.jsonl'), '--out', join(dir, 'out.jsonl')]]) {
      writeFileSync(loads, '');
      process.env['PARL_LOADS_FILE'] = loads;
      try {
        const r = runBin(args, { nodeArgs: ['--import', RECORD_LOADS] });
        expect(r.code, r.stderr).toBe(0);
      } finally {
        delete process.env['PARL_LOADS_FILE'];
      }
      const loaded = readFileSync(loads, 'utf8');
      expect(loaded).toContain('parl.js');
      expect(loaded).not.toMatch(/apache-arrow|parquet-wasm|piscina/);
    }
  });
});
