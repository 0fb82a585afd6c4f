/**
 * Each defect of the reliability run (issue 11), reproduced as it was found: the command must
 * now give the right output or one clear line with exit code 1 or 2, and lose nothing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, requireBuiltBin, runBin } from './support/bin.js';
import { parl } from './support/memory-io.js';
import { parseJsonl } from './support/records.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

const deepField = `${'['.repeat(5000)}${']'.repeat(5000)}`;

/** No `null`, `NaN` or `Infinity` anywhere in accepted output. */
function expectOnlyFiniteNumbers(stdout: string): void {
  expect(stdout).not.toMatch(/null|NaN|Infinity/);
}

describe('nothing that existed before a run is lost (parl train --out)', () => {
  const small = (dir: string): string => {
    const path = join(dir, 'small.json');
    writeFileSync(path, JSON.stringify({ tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 4 } }));
    return path;
  };

  it('refuses a folder with files it did not write, and keeps them', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const out = join(dir, 'd');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'precious\n');
    const r = await parl(['train', '--steps', '2', '--config', small(dir), '--out', out, '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `parl train: out must be a new folder, an empty one or a previous run folder, but it holds notes.txt, which parl train did not write (choose another path, or pass --force to replace it), got ${JSON.stringify(out)}\n`,
    );
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('precious\n');
    expect(filesIn(dir)).toEqual(['d', 'small.json']);
  });

  it('refuses to turn an existing file into a folder', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const out = join(dir, 'existing-file.txt');
    writeFileSync(out, 'keep me\n');
    const r = await parl(['train', '--steps', '2', '--config', small(dir), '--out', out, '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/out must be a folder for the run, but it is an existing file/);
    expect(readFileSync(out, 'utf8')).toBe('keep me\n');
  });

  it('replaces a previous run folder, and anything with --force', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const out = join(dir, 'run');
    expect((await parl(['train', '--steps', '2', '--config', small(dir), '--out', out, '--quiet'])).code).toBe(0);
    expect((await parl(['train', '--steps', '2', '--config', small(dir), '--out', out, '--quiet'])).code).toBe(0);
    writeFileSync(join(out, 'notes.txt'), 'mine\n');
    expect((await parl(['train', '--steps', '2', '--config', small(dir), '--out', out, '--quiet'])).code).toBe(2);
    expect((await parl(['train', '--steps', '2', '--config', small(dir), '--out', out, '--quiet', '--force'])).code).toBe(0);
    expect(filesIn(out)).toEqual(['config.json', 'metrics.jsonl', 'policy', 'report.html', 'summary.json']);
    expect(filesIn(dir)).toEqual(['run', 'small.json']);
  });
});

describe('no input crashes a record command', () => {
  it('reports a record nested deeper than JSON.stringify can write as a bad record, skippable', async () => {
    const input = `{"r_perf":0.5,"x":${deepField}}\n{"r_perf":0.7}\n`;
    for (const command of ['reward', 'critical-steps']) {
      const line2 = command === 'reward' ? '{"r_perf":0.7}' : '{"stages":[{"main_steps":1}]}';
      const text = command === 'reward' ? input : `{"stages":[{"main_steps":1}],"x":${deepField}}\n${line2}\n`;
      const failed = await parl([command], text);
      expect(failed.code).toBe(2);
      expect(failed.stdout).toBe('');
      expect(failed.stderr).toBe(`parl ${command}: line 1: record must be nested at most a few thousand levels deep, got "(a value nested too deeply to write)"\n`);
      const skipped = await parl([command, '--on-error', 'skip'], text);
      expect(skipped.code).toBe(0);
      expect(parseJsonl(skipped.stdout)).toHaveLength(1);
      expect(skipped.stderr).toMatch(/skipped 1 of 2 records/);
    }
  });

  it('reads JSONL whose first line is broken line by line: the error names line 1, skip keeps the rest', async () => {
    const good = Array.from({ length: 999 }, (_, i) => `{"id":${i},"r_perf":0.5}`).join('\n');
    const failed = await parl(['reward'], `not json\n${good}\n`);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/^parl reward: line 1: record must be valid JSON/);
    const skipped = await parl(['reward', '--on-error', 'skip'], `not json\n${good}\n`);
    expect(skipped.code).toBe(0);
    expect(parseJsonl(skipped.stdout)).toHaveLength(999);
    expect(skipped.stderr).toMatch(/skipped 1 of 1000 records/);
  });

  it('still reads pretty-printed objects and arrays spread over lines', async () => {
    const pretty = await parl(['reward'], '{\n  "id": "a",\n  "r_perf": 0.5\n}\n{\n  "id": "b",\n  "r_perf": 1\n}\n');
    expect(pretty.code).toBe(0);
    expect(JSON.parse(pretty.stdout).map((r: { id: string }) => r.id)).toEqual(['a', 'b']);
  });

  it('writes no null: an overflowing sum is a named error, features near the limit still average', async () => {
    const overflow = await parl(['reward'], '{"r_perf":0.5,"stages":[{"main_steps":1e308,"sub_steps":[1e308]},{"main_steps":1e308}]}\n');
    expect(overflow.code).toBe(2);
    expect(overflow.stderr).toBe(
      "parl reward: line 1: critical_steps must be a finite number: the record's values overflow a double when combined, got Infinity\n",
    );
    const features = await parl(['reward'], '{"trajectory_features":[1e308,1e308],"success":false}\n{"trajectory_features":[1e308,1e308],"success":true}\n');
    expect(features.code).toBe(0);
    expectOnlyFiniteNumbers(features.stdout);
    expect(parseJsonl(features.stdout).map((r) => r['r_perf'])).toEqual([0, 1]);
    const lambda = await parl(['reward', '--lambda1', 'linear:1e308:-1e308:1'], '{"r_perf":0.5}\n');
    expect(lambda.code).toBe(2);
    expect(lambda.stderr).toMatch(/--lambda1\.to must be within a finite distance of from/);
    const schedule = await parl(['schedule', 'linear:1e308:-1e308:10']);
    expect(schedule.code).toBe(2);
    expect(schedule.stdout).toBe('');
  });

  it('keeps a lone CR inside a record: it is JSON whitespace, not a line break', async () => {
    const r = await parl(['reward', '--on-error', 'skip'], '{"id":"r1","r_perf":0.5}\n{"id":"r2",\r"r_perf":0.5}\r\nbad\n');
    expect(parseJsonl(r.stdout).map((x) => x['id'])).toEqual(['r1', 'r2']);
    expect(r.stderr).toMatch(/^parl reward: skipped line 3: record must be valid JSON/);
  });

  it('names a line of bytes that are not UTF-8 instead of turning them into U+FFFD', async () => {
    const bad = Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","r_perf":1}\n')]);
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.jsonl'), bad);
    const failed = runBin(['reward', '--in', join(dir, 'bad.jsonl')]);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toBe('parl reward: line 1: record must be a line of valid UTF-8 text, got "(bytes that are not UTF-8)"\n');
  });

  it('reads its own output back: reward | critical-steps | reward, and labelling twice changes nothing', async () => {
    const input = '{"id":1,"success":true,"quality":0.5,"stages":[{"main_steps":1,"sub_steps":[2,3]}]}\n{"id":2,"trajectory_features":[0.2,0.4],"success":1}\n';
    const once = await parl(['reward'], input);
    expect(once.code).toBe(0);
    const steps = await parl(['critical-steps', '--on-error', 'skip'], once.stdout);
    expect(steps.code).toBe(0);
    const again = await parl(['reward'], once.stdout);
    expect(again).toEqual(once);
  });

  it('reads flags as decimal numbers only', async () => {
    for (const args of [['reward', '--budget', '0x10'], ['train', '--seed', '0x10'], ['reward', '--lambda1', 'constant:0x10']]) {
      const r = await parl(args, '{"r_perf":1}\n');
      expect(r.code).toBe(2);
    }
  });
});

describe('exits like a Unix tool', () => {
  it('removes its temp file and exits 130 / 143 when interrupted mid-write', { timeout: 60_000 }, async () => {
    requireBuiltBin();
    const dir = tempDir();
    const line = `${JSON.stringify({ id: 'x', r_perf: 0.5, stages: [{ main_steps: 1, sub_steps: [2, 3, 4] }] })}\n`;
    writeFileSync(join(dir, 'big.jsonl'), line.repeat(400_000));
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      const child = spawn(process.execPath, [BIN, 'reward', '--in', join(dir, 'big.jsonl'), '--out', join(dir, 'out.jsonl')]);
      // Wait until the temp file exists, so the signal lands mid-write.
      const deadline = Date.now() + 20_000;
      while (!filesIn(dir).some((f) => f.endsWith('.tmp')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      child.kill(signal);
      const exit = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      expect(exit).toBe(code);
      expect(filesIn(dir)).toEqual(['big.jsonl']);
    }
  });

  it('ends with one line, not a stack trace, when stdout is a full device', () => {
    if (!existsSync('/dev/full')) return;
    const full = spawnToDevFull(['reward'], '{"r_perf":0.5}\n');
    expect(full.code).toBe(1);
    expect(full.stderr).toBe('parl: cannot write stdout: no space left on device\n');
  });
});

function spawnToDevFull(args: readonly string[], input: string): { code: number | null; stderr: string } {
  const fd = openSync('/dev/full', 'w');
  try {
    const r = spawnSync(process.execPath, [BIN, ...args], { input, stdio: ['pipe', fd, 'pipe'], encoding: 'utf8' });
    return { code: r.status, stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}
