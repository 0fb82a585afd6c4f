import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeReward, criticalSteps } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';
import { BAD_RECORD, GOOD_RECORDS, jsonl, parseJsonl } from './support/records.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

describe('parl reward', () => {
  it('adds every spec §3 field to each JSONL record, keeping its own fields, with core numbers', async () => {
    const r = await parl(['reward'], jsonl(GOOD_RECORDS));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = parseJsonl(r.stdout);
    expect(out).toHaveLength(3);
    for (const [i, rec] of out.entries()) {
      const expected = computeReward(GOOD_RECORDS[i] ?? {});
      expect(rec).toMatchObject({ ...GOOD_RECORDS[i], ...expected });
    }
    expect(out[0]).toMatchObject({ id: 'a', lambda1: 0.05, r_parallel: 0.25, r_finish: 0.8, r_perf: 0.8 });
    expect(out[0]?.['total_reward']).toBeCloseTo(0.8525, 12);
    // a record with stages also gets the spec §2 fields
    expect(out[1]).toMatchObject(criticalSteps(GOOD_RECORDS[1].stages));
  });

  it('applies --step, --lambda1/--lambda2 schedules, --max-subagents and --parallel-shape', async () => {
    const rec = { num_subagents: 10, r_perf: 0.2, training_step: 0 };
    const r = await parl(['reward', '--step', '3000', '--lambda1', 'step:0.1,0.05,0:3000,6000', '--lambda2', '{"kind":"constant","value":0.3}', '--max-subagents', '20', '--parallel-shape', 'log'], jsonl([rec]));
    expect(r.code).toBe(0);
    const [out] = parseJsonl(r.stdout);
    const expected = computeReward(rec, { step: 3000, lambda1: 'step:0.1,0.05,0:3000,6000', lambda2: 'constant:0.3', maxSubagents: 20, parallelShape: 'log' });
    expect(out).toMatchObject(expected);
    expect(out?.['lambda1']).toBe(0.05);
    expect(out?.['lambda2']).toBe(0.3);
    expect(out?.['r_parallel']).toBeCloseTo(Math.log1p(10) / Math.log1p(20), 12);
  });

  it('uses --total-steps as the length of the default λ schedules', async () => {
    const r = await parl(['reward', '--total-steps', '100'], jsonl([{ r_perf: 0, training_step: 50 }]));
    expect(parseJsonl(r.stdout)[0]).toMatchObject({ lambda1: 0.05, lambda2: 0.05 });
  });

  it('zeroes r_perf of an episode over --budget (fail) and keeps it under truncate', async () => {
    const rec = GOOD_RECORDS[1]; // critical steps 1+5 + 1+9 + 1 = 17
    const fail = parseJsonl((await parl(['reward', '--budget', '10'], jsonl([rec]))).stdout)[0];
    const truncate = parseJsonl((await parl(['reward', '--budget', '10', '--on-budget', 'truncate'], jsonl([rec]))).stdout)[0];
    expect(fail?.['r_perf']).toBe(0);
    expect(truncate?.['r_perf']).toBe(0.5);
  });

  it('reads a JSON array and writes a JSON array', async () => {
    const r = await parl(['reward'], JSON.stringify(GOOD_RECORDS, null, 2));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as unknown[];
    expect(out).toHaveLength(3);
    expect(out[0]).toMatchObject(computeReward(GOOD_RECORDS[0]));
  });

  it('stops at a bad record with exit code 2 and one message naming line, field path, value and expectation', async () => {
    const r = await parl(['reward'], jsonl([GOOD_RECORDS[0], BAD_RECORD, GOOD_RECORDS[1]]));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('parl reward: line 2: stages[1].sub_steps[0] must be a finite number ≥ 0, got -3\n');
  });

  it('names the record index of a bad record in a JSON array', async () => {
    const r = await parl(['reward'], JSON.stringify([GOOD_RECORDS[0], { r_perf: 'high' }]));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('parl reward: record 2: r_perf must be a finite number, got "high"\n');
  });

  it('with --on-error skip, reports each skipped line and the count, and labels the rest', async () => {
    const input = jsonl([GOOD_RECORDS[0], BAD_RECORD, GOOD_RECORDS[1]]) + '{not json\n' + jsonl([GOOD_RECORDS[2]]);
    const r = await parl(['reward', '--on-error', 'skip'], input);
    expect(r.code).toBe(0);
    expect(parseJsonl(r.stdout).map((x) => x['id'])).toEqual(['a', 'b', 'c']);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('parl reward: skipped line 2: stages[1].sub_steps[0] must be a finite number ≥ 0, got -3');
    expect(lines[1]).toMatch(/^parl reward: skipped line 4: record must be valid JSON/);
    expect(lines[2]).toBe('parl reward: skipped 2 of 5 records');
  });

  it('writes --out atomically, and a failing run leaves no file under the final name (nor a temp file)', async () => {
    const dir = tempDir();
    const inPath = join(dir, 'in.jsonl');
    const outPath = join(dir, 'out.jsonl');
    writeFileSync(inPath, jsonl([GOOD_RECORDS[0], GOOD_RECORDS[1], BAD_RECORD]));
    const failed = await parl(['reward', '--in', inPath, '--out', outPath]);
    expect(failed.code).toBe(2);
    expect(existsSync(outPath)).toBe(false);
    expect(filesIn(dir)).toEqual(['in.jsonl']);

    writeFileSync(outPath, 'previous content\n');
    const failedAgain = await parl(['reward', '--in', inPath, '--out', outPath]);
    expect(failedAgain.code).toBe(2);
    expect(readFileSync(outPath, 'utf8')).toBe('previous content\n');

    writeFileSync(inPath, jsonl(GOOD_RECORDS));
    const ok = await parl(['reward', '--in', inPath, '--out', outPath]);
    expect(ok.code).toBe(0);
    expect(parseJsonl(readFileSync(outPath, 'utf8'))).toHaveLength(3);
    expect(ok.stdout).toBe('');
    expect(ok.stderr).toBe(`parl reward: 3 records written to ${outPath}\n`);
    expect(filesIn(dir)).toEqual(['in.jsonl', 'out.jsonl']);
  });

  it('can label a file in place (--in and --out the same file): the input is read whole before the rename', async () => {
    const dir = tempDir();
    const path = join(dir, 'episodes.jsonl');
    writeFileSync(path, jsonl(GOOD_RECORDS));
    const r = await parl(['reward', '--in', path, '--out', path]);
    expect(r.code).toBe(0);
    expect(parseJsonl(readFileSync(path, 'utf8')).map((x) => x['total_reward'])).toEqual(GOOD_RECORDS.map((g) => computeReward(g).total_reward));
    expect(filesIn(dir)).toEqual(['episodes.jsonl']);
  });

  it('converts JSONL in to a JSON array out with --format json', async () => {
    const r = await parl(['reward', '--format', 'json'], jsonl(GOOD_RECORDS));
    expect((JSON.parse(r.stdout) as unknown[]).map((x) => (x as { id: string }).id)).toEqual(['a', 'b', 'c']);
  });

  it('writes CSV with a header from the first record and quoted nested values', async () => {
    const r = await parl(['reward', '--format', 'csv', '--columns', 'id,total_reward,stages'], jsonl([GOOD_RECORDS[1], GOOD_RECORDS[0]]));
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('id,total_reward,stages');
    const b = computeReward(GOOD_RECORDS[1]).total_reward;
    expect(lines[1]).toBe(`b,${b},"${JSON.stringify(GOOD_RECORDS[1].stages).replace(/"/g, '""')}"`);
    expect(lines[2]).toBe(`a,${computeReward(GOOD_RECORDS[0]).total_reward},`);
  });

  it('notes once on stderr which fields a later record adds that have no CSV column', async () => {
    const r = await parl(['reward', '--format', 'csv'], jsonl([{ id: 'x', r_perf: 1 }, { id: 'y', r_perf: 1, extra: 1 }, { id: 'z', r_perf: 1, extra: 2 }]));
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('id,r_perf,total_reward,r_parallel,r_finish,lambda1,lambda2,instantiation_component,finish_component,task_component');
    expect(r.stderr).toBe('parl reward: note: line 2 has a field with no CSV column, left out: extra (columns come from the first record; choose them with --columns)\n');
  });

  it('prints a JSON summary with --json (stdout when records go to a file)', async () => {
    const dir = tempDir();
    const outPath = join(dir, 'o.json');
    const r = await parl(['reward', '--out', outPath, '--json', '--on-error', 'skip'], jsonl([GOOD_RECORDS[0], BAD_RECORD]));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      command: 'reward',
      records_read: 2,
      records_written: 1,
      records_skipped: 1,
      input_format: 'jsonl',
      output_format: 'jsonl',
      output: outPath,
    });
  });

  it('gives one clear line for a bad schedule and for a missing file', async () => {
    const bad = await parl(['reward', '--lambda1', 'linear:0.1:0:-5'], jsonl([GOOD_RECORDS[0]]));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('parl reward: --lambda1.steps must be a finite number > 0, got -5\n');
    const missing = await parl(['reward', '--in', '/nonexistent/episodes.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('parl reward: cannot read --in /nonexistent/episodes.jsonl: no such file or directory\n');
  });

  it('says what is wrong in one line and exits 2 on a bad flag or flag value', async () => {
    for (const args of [['reward', '--nope'], ['reward', '--step', 'soon'], ['reward', '--format', 'xml'], ['reward', '--max-subagents', '0']]) {
      const r = await parl(args, '');
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
      // one line (and a suggestion for a typo), not the whole usage
      expect(r.stderr).not.toContain('Usage:');
      expect(r.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
    }
    const r = await parl(['reward', '--step', '-1']);
    expect(r.stderr).toContain("option '--step <s>' argument '-1' is invalid. Expected a decimal number ≥ 0.");
  });

  it('gives an empty output for an empty input', async () => {
    expect(await parl(['reward'], '')).toEqual({ code: 0, stdout: '', stderr: 'parl reward: 0 records read (the input is empty)\n' });
    expect((await parl(['reward', '--format', 'json'], '\n\n')).stdout).toBe('[]\n');
  });

  it('answers an empty JSON array with an empty JSON array', async () => {
    expect(await parl(['reward'], '[]')).toEqual({ code: 0, stdout: '[]\n', stderr: 'parl reward: 0 records read (an empty JSON array)\n' });
  });

  it('warns once per misspelt field, naming the record and the field it was probably meant to be', async () => {
    const input = '{"num_subagent":25,"success":true}\n{"num_subagent":5,"success":true}\n{"success":true,"stages":[{"main_steps":1,"sub_step":[2]}]}\n';
    const r = await parl(['reward'], input);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'parl reward: warning: line 1: num_subagent: did you mean num_subagents? (it is kept as an extra field and not read)\n' +
        'parl reward: warning: line 3: stages[0].sub_step: did you mean sub_steps? (it is kept as an extra field and not read)\n',
    );
    expect(r.stdout.split('\n').filter((l) => l !== '')).toHaveLength(3);
  });
});

