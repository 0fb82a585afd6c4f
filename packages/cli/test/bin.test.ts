import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeReward } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { BIN, runBin } from './support/bin.js';
import { BAD_RECORD, GOOD_RECORDS, jsonl, parseJsonl } from './support/records.js';
import { useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

describe('the parl bin (node bin/parl.js)', () => {
  it('is an executable node script', () => {
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(BIN).mode & 0o111).not.toBe(0);
  });

  it('labels records from stdin to stdout, logs nothing on success', () => {
    const r = runBin(['reward'], { input: jsonl(GOOD_RECORDS) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(parseJsonl(r.stdout).map((x) => x['total_reward'])).toEqual(GOOD_RECORDS.map((g) => computeReward(g).total_reward));
  });

  it('reads --in and writes --out, JSON in giving JSON out, CSV on request', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.json'), JSON.stringify(GOOD_RECORDS));
    const json = runBin(['critical-steps', '--in', 'in.json', '--out', 'out.json', '--on-error', 'skip'], { cwd: dir });
    expect(json.code).toBe(0);
    const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { id: string; critical_steps: number }[];
    expect(out.map((o) => [o.id, o.critical_steps])).toEqual([
      ['b', 17],
      ['c', 3.5],
    ]);
    const csv = runBin(['critical-steps', '--in', 'in.json', '--format', 'csv', '--columns', 'id,parallelism', '--on-error', 'skip'], { cwd: dir });
    expect(csv.stdout).toBe(`id,parallelism\nb,${26 / 17}\nc,${4.5 / 3.5}\n`);
  });

  it('exits 2 with one line on a bad record, and no stack trace for a missing file', () => {
    const bad = runBin(['reward'], { input: jsonl([GOOD_RECORDS[0], BAD_RECORD]) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('parl reward: line 2: stages[1].sub_steps[0] must be a finite number ≥ 0, got -3\n');
    const missing = runBin(['report', '/nonexistent/run']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('parl report: cannot read run folder /nonexistent/run: no such file or directory\n');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  it('ends quietly with exit 0 when the reader of stdout goes away (| head)', () => {
    const script = `"${process.execPath}" "${BIN}" schedule constant:1 --to 1000000 --points 400000 --csv | head -n 2; echo "status=\${PIPESTATUS[0]}" >&2`;
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
    expect(r.stdout).toBe('step,value\n0,1\n');
    expect(r.stderr).toBe('status=0\n');
  });

  it('prints help with exit 0 and usage with exit 2 for an unknown command', () => {
    const help = runBin(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: parl [options] [command]');
    const unknown = runBin(['rewrd']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown command 'rewrd'");
    expect(unknown.stderr).toContain('(Did you mean reward?)');
  });
});

describe('parl --version', () => {
  it("prints the package's version", () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(runBin(['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});
