/**
 * `--threads N` and the chunked JSONL path against the record-by-record path: the same output,
 * byte for byte, in input order, with the same messages, whatever the number of threads; the
 * first bad line still stops the run with one line naming it. Inputs span several 1 MiB chunks.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parl, type CliRun } from './support/memory-io.js';
import { fuzzLine, validRecord } from '@parl/test-support/fuzz-records';
import { useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

/**
 * `parl ARGS --in FILE` with `input` in FILE: a file is read 1 MiB at a time, so the input is cut
 * into chunks (stdin in memory comes as one piece, one chunk).
 */
async function parlOnFile(args: readonly string[], input: string): Promise<CliRun> {
  const file = join(tempDir(), 'in.jsonl');
  writeFileSync(file, input);
  return parl([...args, '--in', file]);
}

/** About `bytes` of JSONL from the fuzz lines (valid and broken), deterministic for a seed. */
function fuzzFile(bytes: number, seed: number): string {
  const lines: string[] = [];
  let size = 0;
  const sample = fc.sample(fc.tuple(fuzzLine, fuzzLine, fuzzLine, fuzzLine), { numRuns: 4000, seed });
  for (let i = 0; size < bytes; i++) {
    const group = sample[i % sample.length] as string[];
    for (const line of group) {
      lines.push(line);
      size += line.length + 1;
    }
  }
  return `${JSON.stringify(fc.sample(validRecord, { numRuns: 1, seed })[0])}\n${lines.join('\n')}\n`;
}

const COMMANDS = [
  ['reward', '--lambda1', 'linear:0.3:0:20000'],
  ['critical-steps', '--budget', '25', '--on-budget', 'truncate'],
] as const;

describe('labelling JSONL in chunks, in one thread or several', () => {
  for (const command of COMMANDS) {
    it(`parl ${command[0]}: --threads 1, 2 and 3 write the same bytes and say the same things`, { timeout: 240_000 }, async () => {
      const input = fuzzFile(3_500_000, 14);
      const one = await parlOnFile([...command, '--on-error', 'skip'], input);
      expect(one.code, one.stderr.slice(0, 500)).toBe(0);
      for (const threads of ['2', '3']) {
        const many = await parlOnFile([...command, '--on-error', 'skip', '--threads', threads], input);
        expect(many.code).toBe(0);
        expect(many.stderr).toBe(one.stderr);
        expect(many.stdout === one.stdout).toBe(true);
      }
      const json = await parlOnFile([...command, '--on-error', 'skip', '--threads', '2', '--format', 'json'], input);
      expect(JSON.parse(json.stdout)).toEqual(one.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown));
    });
  }

  it('gives the record-by-record path\'s bytes: JSONL in chunks equals the same records as a JSON array', { timeout: 120_000 }, async () => {
    const records = fc.sample(validRecord, { numRuns: 3000, seed: 7 });
    const jsonlText = `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
    for (const command of COMMANDS) {
      const chunked = await parl([...command, '--threads', '2'], jsonlText);
      const byRecord = await parl([...command, '--format', 'jsonl'], JSON.stringify(records));
      expect(chunked.code, chunked.stderr).toBe(0);
      expect(chunked.stdout === byRecord.stdout).toBe(true);
    }
  });

  it('copies the bytes of non-ASCII records and trims spaced or CRLF lines as the record-by-record path writes them', { timeout: 120_000 }, async () => {
    const names = ['café', '日本語の課題', 'emoji 🚀 task', 'plain'];
    const records = Array.from({ length: 30_000 }, (_, i) => ({
      id: `${names[i % names.length] as string}-${i}`,
      r_perf: (i % 10) / 10,
      stages: [{ main_steps: 1, sub_steps: [i % 5, (i * 3) % 7] }],
    }));
    // Some lines spaced, some ended by CRLF: the fast path writes their trimmed text.
    const line = (r: object, i: number): string => (i % 7 === 0 ? `  ${JSON.stringify(r)}\t` : i % 11 === 0 ? `${JSON.stringify(r)}\r` : JSON.stringify(r));
    const jsonlText = `${records.map(line).join('\n')}\n`;
    expect(Buffer.byteLength(jsonlText)).toBeGreaterThan(2_500_000);
    for (const command of COMMANDS) {
      const byRecord = await parl([...command, '--format', 'jsonl'], JSON.stringify(records));
      expect(byRecord.code, byRecord.stderr).toBe(0);
      for (const threads of ['1', '2']) {
        const chunked = await parlOnFile([...command, '--threads', threads], jsonlText);
        expect(chunked.code, chunked.stderr).toBe(0);
        expect(chunked.stdout === byRecord.stdout).toBe(true);
      }
    }
  });

  it('names each bad line and warning by its line of the input, as the record-by-record reader does', { timeout: 240_000 }, async () => {
    // Chunks are labelled before the lines ahead of them are counted: their line numbers are shifted after.
    const input = fuzzFile(2_500_000, 21);
    const [command] = COMMANDS;
    // CSV output is written record by record, from the line reader's own numbering.
    const byRecord = await parlOnFile([...command, '--on-error', 'skip', '--format', 'csv'], input);
    const said = (stderr: string): string[] => stderr.split('\n').filter((l) => / line \d+: /.test(l));
    expect(said(byRecord.stderr).length).toBeGreaterThan(100);
    for (const threads of ['1', '2']) {
      const chunked = await parlOnFile([...command, '--on-error', 'skip', '--threads', threads], input);
      expect(said(chunked.stderr)).toEqual(said(byRecord.stderr));
    }
  });

  it('stops at the first bad line with one line naming it, with threads too', { timeout: 120_000 }, async () => {
    const good = Array.from({ length: 40_000 }, (_, i) => `{"id":${i},"r_perf":0.5,"num_subagents":${i % 9}}`);
    good[31_337] = '{"id":31337,"r_perf":"high"}';
    good[35_000] = 'not json';
    const input = `${good.join('\n')}\n`;
    for (const threads of ['1', '2']) {
      const r = await parlOnFile(['reward', '--threads', threads], input);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('parl reward: line 31338: r_perf must be a finite number, got "high"\n');
    }
  });
});
